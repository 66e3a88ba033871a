import { describe, expect, it } from 'vitest';
import { FatalError, formatDuration, ProviderContext, validateTypeDefinition, type LogMessage } from '../../src/apply/index.js';
import { typeSystem } from './helpers.js';

const definition = validateTypeDefinition({ name: 'some_resource', desc: 'd', attributes: { name: { type: 'String', desc: 'n', behaviour: 'namevar' }, ensure: { type: 'Enum[present, absent]', desc: 'e' } } }, typeSystem).definition;

/** A context whose clock advances 0.000009 s per reading, so timings are deterministic. */
function context(): { ctx: ProviderContext; logs: LogMessage[] } {
    const logs: LogMessage[] = [];
    let t = 0;
    const ctx = new ProviderContext(definition, m => { logs.push(m); }, undefined, () => (t += 0.009));
    return { ctx, logs };
}

const lines = (logs: LogMessage[]): string[] => logs.map(l => `${l.level}: ${l.message}`);

/** features.md §14: every logging call and its exact message. */
const cases: { id: string; call: (c: ProviderContext) => void; expected: string[]; failed?: boolean }[] = [
    { id: 'warning(message)', call: c => c.warning('message'), expected: ['warning: some_resource: message'] },
    { id: 'warning([], message)', call: c => c.warning([], 'message'), expected: ['warning: some_resource: message'] },
    { id: "warning('', message)", call: c => c.warning('', 'message'), expected: ['warning: some_resource[]: message'] },
    { id: 'warning(title, message)', call: c => c.warning('a', 'message'), expected: ['warning: some_resource[a]: message'] },
    { id: 'warning(titles, message)', call: c => c.warning(['a', 'b'], 'message'), expected: ['warning: some_resource[a, b]: message'] },
    { id: 'debug(composite title)', call: c => c.debug({ package: 'php', manager: 'yum' }, 'm'), expected: ['debug: some_resource[{:package=>"php", :manager=>"yum"}]: m'] },
    { id: 'three or more arguments', call: c => c.warning('m1', 'm2', 'm3'), expected: ['warning: m1, m2, m3'] },
    { id: 'debug/info/notice/err levels', call: c => { c.debug('d'); c.info('i'); c.notice('n'); c.err('e'); },
        expected: ['debug: some_resource: d', 'info: some_resource: i', 'notice: some_resource: n', 'err: some_resource: e'] },
    { id: 'creating success', call: c => c.creating('t', () => undefined), expected: ['debug: some_resource[t]: Creating: Start', 'notice: some_resource[t]: Creating: Finished in 0.000009 seconds'] },
    { id: 'updating with a custom message', call: c => c.updating('t', () => undefined, { message: 'Frobbing' }),
        expected: ['debug: some_resource[t]: Frobbing: Start', 'notice: some_resource[t]: Frobbing: Finished in 0.000009 seconds'] },
    { id: 'deleting several titles', call: c => c.deleting(['a', 'b'], () => undefined), expected: ['debug: some_resource[a, b]: Deleting: Start', 'notice: some_resource[a, b]: Deleting: Finished in 0.000009 seconds'] },
    { id: 'plain message inside a block', call: c => c.creating('t', () => c.warning('inside')),
        expected: ['debug: some_resource[t]: Creating: Start', 'warning: some_resource[t]: Creating: inside', 'notice: some_resource[t]: Creating: Finished in 0.000009 seconds'] },
    { id: 'block failure is logged and swallowed', call: c => c.creating('t', () => { throw new Error('boom'); }),
        expected: ['debug: some_resource[t]: Creating: Start', 'err: some_resource[t]: Creating: Failed after 0.000009 seconds: boom'], failed: true },
    { id: 'the block prefix does not leak', call: c => { c.creating('t', () => { throw new Error('x'); }); c.warning('after'); },
        expected: ['debug: some_resource[t]: Creating: Start', 'err: some_resource[t]: Creating: Failed after 0.000009 seconds: x', 'warning: some_resource: after'], failed: true },
    { id: 'failing', call: c => c.failing('t', () => undefined), expected: ['debug: some_resource[t]: Failing: Start', 'warning: some_resource[t]: Failing: Finished failing in 0.000009 seconds'] },
    { id: 'failing with an error', call: c => c.failing('t', () => { throw new Error('bad'); }),
        expected: ['debug: some_resource[t]: Failing: Start', 'err: some_resource[t]: Failing: Failed after 0.000009 seconds: bad'], failed: true },
    { id: 'processing', call: c => c.processing('t', { ensure: 'absent' }, { ensure: 'present' }, () => undefined),
        expected: ['debug: some_resource[t]: Processing: Starting processing of t from {:ensure=>"absent"} to {:ensure=>"present"}',
            'notice: some_resource[t]: Processing: Finished processing t in 0.000009 seconds: {:ensure=>"present"}'] },
    { id: 'processing failure', call: c => c.processing('t', {}, {}, () => { throw new Error('no'); }),
        expected: ['debug: some_resource[t]: Processing: Starting processing of t from {} to {}', 'err: some_resource[t]: Processing: Failed processing t after 0.000009 seconds: no'], failed: true },
    { id: 'created(titles)', call: c => c.created(['T[one]', 'T[two]']), expected: ['notice: some_resource: Created: ["T[one]", "T[two]"]'] },
    { id: 'updated(title, message)', call: c => c.updated('x', { message: 'Custom msg' }), expected: ['notice: some_resource: Custom msg: x'] },
    { id: 'deleted(title)', call: c => c.deleted('x'), expected: ['notice: some_resource: Deleted: x'] },
    { id: 'processed', call: c => c.processed('t', { ensure: 'absent' }, { ensure: 'present', name: 't' }),
        expected: ['notice: some_resource: Processed t from {:ensure=>"absent"} to {:ensure=>"present", :name=>"t"}'] },
    { id: "failed default message (the gem's, not the spec's 'Failed')", call: c => c.failed(['a', 'b']), expected: ['err: some_resource[a, b]: Updating has failed'] },
    { id: 'attribute_changed', call: c => c.attributeChanged('T[foo]', 'cfg', '/a', '/b'), expected: ["notice: some_resource: T[foo]: attribute 'cfg' changed from '/a' to '/b'"] },
    { id: 'attribute_changed numbers, nil and a message', call: c => c.attributeChanged('x', 'n', 5n, null, { message: 'why' }), expected: ["notice: some_resource: x: attribute 'n' changed from 5 to nil: why"] },
    // The gem's quirk, kept as real puppet apply prints it: false is not truthy, so it prints as nil; other values are quoted.
    { id: 'attribute_changed prints false as nil, true quoted (the gem)', call: c => c.attributeChanged('x', 'b', false, true), expected: ["notice: some_resource: x: attribute 'b' changed from nil to 'true'"] },
    { id: 'log_exception', call: c => c.logException(new Error('x'), { message: 'message' }), expected: ['err: some_resource: message: x'] },
    { id: 'log_exception default message', call: c => c.logException(new Error('x')), expected: ['err: some_resource: Error encountered: x'] },
    { id: 'feature_support? is deprecated', call: c => { c.featureSupport('canonicalize'); }, expected: ['warning: some_resource: context.feature_support? is deprecated. Please use context.type.feature? instead.'] }
];

describe('context logging (features.md §14)', () => {
    it.each(cases)('$id', c => {
        const { ctx, logs } = context();
        c.call(ctx);
        expect(lines(logs)).toEqual(c.expected);
        expect(ctx.isFailed()).toBe(c.failed === true);
    });

    it.each([
        { id: 'processing', call: (c: ProviderContext) => c.processing(['a', 'b'], {}, {}, () => undefined), message: 'processing only accepts a single resource title' },
        { id: 'attribute_changed', call: (c: ProviderContext) => c.attributeChanged(['a'], 'x', 1, 2), message: 'attribute_changed only accepts a single resource title' },
        { id: 'transport without one', call: (c: ProviderContext) => c.transport, message: 'No transport available.' }
    ])('$id rejects misuse', c => {
        expect(() => c.call(context().ctx)).toThrow(c.message);
    });

    it('fatal errors are not swallowed by a block, and the prefix is reset', () => {
        const { ctx, logs } = context();
        expect(() => ctx.updating('t', () => { throw new FatalError('load'); })).toThrow('load');
        ctx.notice('next');
        expect(lines(logs).at(-1)).toBe('notice: some_resource: next');
    });

    it('reset_failed clears the flag', () => {
        const { ctx } = context();
        ctx.failed('a');
        ctx.resetFailed();
        expect(ctx.isFailed()).toBe(false);
    });

    it.each([[0.000136696, '0.000137'], [123.45678, '123.46'], [123456, '123456.00']])('time %s formats as %s', (s, text) => {
        expect(formatDuration(s)).toBe(text);
    });

    it('context.type introspects the definition', () => {
        const { ctx } = context();
        expect(ctx.type.isEnsurable()).toBe(true);
        expect(ctx.type.hasFeature('canonicalize')).toBe(false);
        expect(ctx.type.attributes.map(a => a.name)).toEqual(['name', 'ensure']);
        expect(ctx.type.namevars()).toEqual(['name']);
    });
});
