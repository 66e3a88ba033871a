import { Classes, ClassClass, Float, Integer, Kernel, type Method, type RHash, type RProc, type RValue } from '../objects.js';
import { arrayMethods } from './array.js';
import { enumerableMethods } from './enumerable.js';
import { hashMethods } from './hash.js';
import { boolMethods, classObjectMethods, kernelMethods, nilMethods, procMethods, sensitiveMethods } from './kernel.js';
import { enumeratorMethods, matchDataMethods, rangeMethods, regexpMethods, staticMethods, symbolMethods } from './misc.js';
import { floatMethods, integerMethods } from './numeric.js';
import { serializeMethods } from './serialize.js';
import { stringMethods } from './string.js';
import { findKey } from '../compare.js';
import { installObjectModel } from './object-model.js';
import { installRandom } from './random.js';
import { installIPAddr } from './ipaddr.js';
import { installShellwords } from './shellwords.js';
import { installWeb, uriFunction } from './web.js';

/** Hash.new(default) and Hash.new { |h, k| ... }: what `h[missing]` gives. */
export const hashDefaults = new WeakMap<RHash, { value: RValue } | { block: RProc }>();

function install(table: Record<string, Method>, ...classes: Array<{ define(n: string, m: Method): void }>): void {
    for (const c of classes) for (const [name, m] of Object.entries(table)) c.define(name, m);
}

install(kernelMethods, Kernel);
install(serializeMethods, Kernel);
install(enumerableMethods, Classes.Enumerable);
install(nilMethods, Classes.NilClass);
install(boolMethods, Classes.TrueClass, Classes.FalseClass);
install(integerMethods, Integer);
install(floatMethods, Float);
install(stringMethods, Classes.String);
install(symbolMethods, Classes.Symbol);
install(arrayMethods, Classes.Array);
install(hashMethods, Classes.Hash);
install(rangeMethods, Classes.Range);
install(regexpMethods, Classes.Regexp);
install(matchDataMethods, Classes.MatchData);
install(procMethods, Classes.Proc);
install(enumeratorMethods, Classes.Enumerator);
install(sensitiveMethods, Classes.Sensitive);
install(classObjectMethods, ClassClass, Classes.Module);

installObjectModel();
installRandom();
installIPAddr();
installShellwords();
installWeb();
Kernel.define('URI', uriFunction);

const hashGet = hashMethods['[]'];
Classes.Hash.define('[]', (self, args, block, call) => {
    const h = self as RHash;
    if (findKey(h, args[0]) !== undefined) return hashGet(self, args, block, call);
    const d = hashDefaults.get(h);
    if (!d) return null;
    return 'value' in d ? d.value : call.yield(d.block, [h, args[0]]);
});
Classes.Hash.defineStatic('new', (_s, args, block) => {
    const h: RHash = new Map();
    if (block) hashDefaults.set(h, { block });
    else if (args.length) hashDefaults.set(h, { value: args[0] });
    return h;
});
for (const [cls, table] of Object.entries(staticMethods)) {
    const target = Classes[cls as 'Regexp' | 'Array' | 'String' | 'Hash' | 'File'];
    for (const [name, m] of Object.entries(table)) target.defineStatic(name, m);
}
