import type { Primitive } from '../../model/index.js';

/** Emfatic and Ecore spellings of the built-in datatypes, mapped onto ours. */
const ALIASES: Readonly<Record<string, Primitive>> = {
    String: 'String', EString: 'String', string: 'String',
    Int: 'Int', int: 'Int', EInt: 'Int', Integer: 'Int', EIntegerObject: 'Int',
    Long: 'Long', long: 'Long', ELong: 'Long', ELongObject: 'Long',
    Boolean: 'Boolean', boolean: 'Boolean', EBoolean: 'Boolean', EBooleanObject: 'Boolean',
    Double: 'Double', double: 'Double', EDouble: 'Double', float: 'Double', Float: 'Double', EFloat: 'Double',
    Data: 'Data'
};

export function builtinType(name: string): Primitive | undefined {
    return Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
}
