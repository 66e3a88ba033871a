import { expect } from 'vitest';
import { createInjector, type InjectionRequest, type Injector, type InjectorOverrides, type InjectedValue, type EvaluationScope, type PuppetCode } from '../../src/injector/index.js';
import { fromRichData, type Model, type RichData } from '../../src/model/index.js';
import type { InjectorError } from '../../src/injector/index.js';

export interface Case {
    /** The case name cites the ARM-8 section or the binder spec/behaviour it checks. */
    readonly name: string;
    readonly model: () => Model;
    readonly request?: Partial<InjectionRequest>;
    readonly services?: InjectorOverrides;
    /** The exact error codes found at creation (in order), each optionally with a message fragment. */
    readonly errors?: readonly (string | readonly [string, string])[];
    /** Warning codes that must be among the issues. */
    readonly warnings?: readonly string[];
    /** Looked-up names (optionally `name@Type`) and their values, written as JSON (numbers are Integers). */
    readonly values?: Readonly<Record<string, RichData>>;
    /** Names whose lookup must fail, with the code and optionally a message fragment. */
    readonly lookupErrors?: Readonly<Record<string, string | readonly [string, string]>>;
    readonly check?: (injector: Injector) => void;
}

export const REQUEST: InjectionRequest = { node: 'kermit.example.com', environment: 'production', facts: { fqdn: 'kermit.example.com' } };

export function pv(d: RichData): InjectedValue {
    return fromRichData(d);
}

export function runCase(c: Case): void {
    const injector = createInjector(c.model(), { ...REQUEST, ...c.request }, { lenient: true, ...(c.services ? { services: c.services } : {}) });
    const errors = injector.issues.filter(i => i.severity === 'error');
    const expected = c.errors ?? [];
    expect(errors.map(e => e.code), errors.map(e => e.message).join('\n')).toEqual(expected.map(e => (typeof e === 'string' ? e : e[0])));
    expected.forEach((e, i) => {
        if (typeof e !== 'string') expect(errors[i].message).toContain(e[1]);
        expect(errors[i].locations.length, `${errors[i].code} names where`).toBeGreaterThan(0);
    });
    for (const w of c.warnings ?? []) expect(injector.issues.map(i => i.code)).toContain(w);
    for (const [spec, value] of Object.entries(c.values ?? {})) {
        const [name, type] = spec.split('@');
        expect(injector.lookup(name, type), spec).toEqual(pv(value));
    }
    for (const [spec, err] of Object.entries(c.lookupErrors ?? {})) {
        const [name, type] = spec.split('@');
        const [code, fragment] = typeof err === 'string' ? [err, undefined] : err;
        let thrown: unknown;
        try {
            injector.lookup(name, type);
        } catch (e) {
            thrown = e;
        }
        expect(thrown, `lookup of ${spec} must fail`).toBeDefined();
        const d = (thrown as InjectorError).diagnostics?.[0];
        expect(d?.code, String(thrown)).toBe(code);
        if (fragment !== undefined) expect(d?.message).toContain(fragment);
    }
    c.check?.(injector);
}

/** Creation must throw for a strict injector when there are errors. */
export function strictErrors(model: Model, request: Partial<InjectionRequest> = {}): string[] {
    try {
        createInjector(model, { ...REQUEST, ...request });
        return [];
    } catch (e) {
        return (e as InjectorError).diagnostics.map(d => d.code);
    }
}

type LambdaImpl = (args: readonly InjectedValue[], scope: EvaluationScope) => InjectedValue;

/**
 * A fake evaluator for producers whose behaviour under test is the injector's (which arguments a
 * combinator or transformer gets, in which order, how often): each known source text has a
 * JavaScript implementation. Calls are recorded.
 */
export function fakeEvaluator(lambdas: Record<string, LambdaImpl>, expressions: Record<string, (scope: EvaluationScope) => InjectedValue> = {}): { services: InjectorOverrides; calls: string[] } {
    const calls: string[] = [];
    const evaluator = {
        evaluate(code: PuppetCode, scope: EvaluationScope): InjectedValue {
            calls.push(code.source);
            const f = expressions[code.source];
            if (!f) throw new Error(`fake evaluator: unknown expression ${code.source}`);
            return f(scope);
        },
        callLambda(code: PuppetCode, args: readonly InjectedValue[], scope: EvaluationScope): InjectedValue {
            calls.push(code.source);
            const f = lambdas[code.source];
            if (!f) throw new Error(`fake evaluator: unknown lambda ${code.source}`);
            return f(args, scope);
        }
    };
    return { services: { evaluator: () => evaluator }, calls };
}
