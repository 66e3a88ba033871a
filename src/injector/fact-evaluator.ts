import type { PuppetValue } from '../model/index.js';
import { NoEvaluatorError } from './evaluation.js';
import type { EvaluationScope, ExpressionEvaluator, PuppetCode } from './spi.js';
import type { InjectedValue } from './values.js';

const VARIABLE = /^\$(?:::)?([a-z_]\w*)((?:\[(?:'[^']*'|"[^"]*"|\d+)\])*)$/;
const ACCESS = /\[('([^']*)'|"([^"]*)"|(\d+))\]/g;

/**
 * The default ExpressionEvaluator until the catalog builder's evaluator is plugged in. It reads
 * what category value expressions are made of in practice: literals, variables and facts
 * (`$::fqdn`, `$facts['os']['family']`) and double-quoted strings interpolating them. Anything
 * else (calls, operators, lambdas) is refused with a message naming the missing evaluator.
 */
export class FactsOnlyEvaluator implements ExpressionEvaluator {
    evaluate(code: PuppetCode, scope: EvaluationScope): InjectedValue {
        return this.expression(code.source.trim(), scope);
    }

    callLambda(lambda: PuppetCode): InjectedValue {
        throw new NoEvaluatorError(`lambdas need the Puppet evaluator, which is not configured: ${lambda.source}`);
    }

    private expression(src: string, scope: EvaluationScope): PuppetValue {
        if (src === 'true' || src === 'false') return src === 'true';
        if (src === 'undef') return null;
        if (/^-?\d+$/.test(src)) return BigInt(src);
        if (/^-?\d+\.\d+$/.test(src)) return Number(src);
        if (/^'(?:[^'\\]|\\.)*'$/.test(src)) return src.slice(1, -1).replace(/\\(['\\])/g, '$1');
        if (/^"(?:[^"\\]|\\.)*"$/.test(src)) return this.interpolate(src.slice(1, -1), scope);
        if (/^[a-z][\w:]*$/.test(src)) return src; // a bare word
        const v = this.variable(src, scope);
        if (v !== undefined) return v;
        throw new NoEvaluatorError(`only literals, variables and facts can be evaluated without the Puppet evaluator: ${src}`);
    }

    private variable(src: string, scope: EvaluationScope): PuppetValue | undefined {
        const m = VARIABLE.exec(src);
        if (!m) return undefined;
        let v: PuppetValue = scope.variables().get(m[1]) ?? null;
        for (const a of m[2].matchAll(ACCESS)) {
            const key = a[2] ?? a[3];
            if (v instanceof Map) v = v.get(key ?? '') ?? null;
            else if (Array.isArray(v) && a[4] !== undefined) v = v[Number(a[4])] ?? null;
            else v = null;
        }
        return v;
    }

    private interpolate(text: string, scope: EvaluationScope): string {
        return text.replace(/\$\{([^}]*)\}|\$(::)?([a-z_]\w*)|\\(.)/g, (all, braced: string | undefined, _c, bare: string | undefined, esc: string | undefined) => {
            if (esc !== undefined) return esc === 'n' ? '\n' : esc === 't' ? '\t' : esc;
            const expr = braced !== undefined ? braced.trim() : `$${bare ?? ''}`;
            const v = this.variable(expr.startsWith('$') ? expr : `$${expr}`, scope);
            if (v === undefined) throw new NoEvaluatorError(`cannot interpolate ${all} without the Puppet evaluator`);
            return v === null ? '' : typeof v === 'string' ? v : String(v);
        });
    }
}
