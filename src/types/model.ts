import { PTypeValue, type PuppetValue, type PRegexp } from '../values/index.js';
import { typeToString } from './to-string.js';

/**
 * Puppet's data types as runtime values. Every type is an instance of a subclass of PAnyType,
 * told apart by `kind`; the operations (string form, instance checks, assignability,
 * inference) live in their own files and switch on `kind` exhaustively.
 */
export abstract class PAnyType extends PTypeValue {
    abstract override readonly kind: TypeKind;
    override equalsType(other: PTypeValue): boolean {
        return other instanceof PAnyType && typeToString(this) === typeToString(other);
    }
}

export type TypeKind =
    | 'Any' | 'Undef' | 'Default' | 'NotUndef' | 'Scalar' | 'ScalarData' | 'Data' | 'RichData' | 'Numeric'
    | 'Integer' | 'Float' | 'String' | 'Enum' | 'Pattern' | 'Boolean' | 'Regexp' | 'Collection' | 'Array'
    | 'Hash' | 'Struct' | 'Tuple' | 'Optional' | 'Variant' | 'Type' | 'Resource' | 'Class' | 'CatalogEntry'
    | 'Callable' | 'Iterable' | 'Iterator' | 'Sensitive' | 'Runtime' | 'Timestamp' | 'Timespan' | 'SemVer'
    | 'SemVerRange' | 'Binary' | 'Deferred' | 'Alias' | 'Init' | 'Object' | 'Error' | 'Unit' | 'TypeReference' | 'URI' | 'TypeSet';

/** Types without parameters (or whose parameters we do not model). */
export type SimpleKind = 'Any' | 'Undef' | 'Default' | 'Scalar' | 'ScalarData' | 'Data' | 'RichData' | 'Numeric'
    | 'CatalogEntry' | 'SemVerRange' | 'Binary'
    | 'Deferred' | 'Unit';

export class PSimpleType extends PAnyType {
    private static readonly cache = new Map<SimpleKind, PSimpleType>();
    private constructor(readonly kind: SimpleKind) { super(); }
    static of(kind: SimpleKind): PSimpleType {
        let t = PSimpleType.cache.get(kind);
        if (!t) {
            t = new PSimpleType(kind);
            PSimpleType.cache.set(kind, t);
        }
        return t;
    }
}

/**
 * Runtime, or Runtime[runtime, name]: values of another language's runtime by their class name
 * (Callable takes a string parameter as Runtime[ruby, 'string']); no Puppet value is an instance.
 */
export class PRuntimeType extends PAnyType {
    readonly kind = 'Runtime';
    constructor(readonly runtime: string | null = null, readonly runtimeName: string | null = null) { super(); }
}

/**
 * TypeReference['Name[...]']: a name a type string (Type.new, assert_type's string) used that
 * nothing resolves, kept as the text written; it has no instances.
 */
export class PTypeReferenceType extends PAnyType {
    readonly kind = 'TypeReference';
    constructor(readonly typeString: string) { super(); }
}

/**
 * URI, or URI[{scheme => ..., host => ...}]: URIs whose parts are the given ones (a URI string
 * given is split into its parts as Puppet's uri_to_hash does). No value modelc makes is one.
 */
export class PURIType extends PAnyType {
    readonly kind = 'URI';
    constructor(readonly parts: ReadonlyMap<string, PuppetValue> | null = null) { super(); }
}

/**
 * TypeSet, or TypeSet[{pcore_version => ..., name => ...}]: a Pcore type set as its initializer
 * hash gives it (`init`, its keys in Puppet's order); null is the default type set.
 */
export class PTypeSetType extends PAnyType {
    /** The default type set's initializer, as Puppet prints it. */
    static readonly DEFAULT_INIT: ReadonlyMap<string, PuppetValue> = new Map([
        ['pcore_uri', 'http://puppet.com/2016.1/pcore'], ['pcore_version', '1.0.0'], ['name_authority', 'http://puppet.com/2016.1/runtime'], ['name', 'DefaultTypeSet'], ['version', '0.0.0']
    ]);

    readonly kind = 'TypeSet';
    constructor(readonly init: ReadonlyMap<string, PuppetValue> | null = null) { super(); }
}

/** Error, or Error[kind, issue_code]: errors of that kind (and issue code); a Pattern matches either by pattern. */
export class PErrorType extends PAnyType {
    readonly kind = 'Error';
    /**
     * `given`: how many parameters were given, as the type prints them (an undef or default one
     * matches any); the type inferred for an Error value gives both.
     */
    constructor(readonly errorKind: PuppetValue = null, readonly issueCode: PuppetValue = null, readonly given = 0) { super(); }
}

/**
 * Init, or Init[T, init_args...]: the values `T.new` accepts (with the init args after them), which
 * `Init[T](value)` turns into a T. `resolution` is what the values accepted come to, worked out
 * from T's new function on first use (types/init.ts).
 */
export class PInitType extends PAnyType {
    readonly kind = 'Init';
    resolution: InitResolution | undefined;
    constructor(readonly type: PAnyType | null = null, readonly initArgs: readonly PuppetValue[] = []) { super(); }
    /** Puppet compares Init types by their type alone (its `==` is the contained-type one, init args ignored). */
    override equalsType(other: PTypeValue): boolean {
        if (!(other instanceof PInitType)) return false;
        return this.type === null || other.type === null ? this.type === other.type : this.type.equalsType(other.type);
    }
}

/** An Init type's accepted values besides instances of its type: `single` values, argument lists (`other` tuples). */
export interface InitResolution {
    readonly single: PAnyType | null;
    readonly other: PAnyType | null;
    /** Some argument list takes one value: a value is accepted when the list of it alone is. */
    readonly optionalSingle: boolean;
}

/**
 * Callable, or Callable[params..., min, max, block] / Callable[[params...], return]: `params` is
 * the Tuple of the parameters (null: any), `block` the block's Callable type, `returnType` what a
 * call returns (null: anything).
 */
export class PCallableType extends PAnyType {
    readonly kind = 'Callable';
    constructor(readonly params: PTupleType | null = null, readonly block: PAnyType | null = null, readonly returnType: PAnyType | null = null) { super(); }
}

/** One attribute of an Object type: its type, kind (constant, derived, ...) and default value (undefined: none). */
export interface ObjectAttribute {
    readonly name: string;
    readonly type: PAnyType;
    readonly kind: string | null;
    readonly value: PuppetValue | undefined;
}

/**
 * A Pcore Object type (`Object[{name => ..., parent => ..., attributes => {...}}]`); the plain
 * `Object` has no name and no attributes. A type alias to an unnamed Object type names it (the
 * alias is the Object type), hence `name` is set once.
 */
export class PObjectType extends PAnyType {
    readonly kind = 'Object';
    constructor(
        public name: string | null = null,
        readonly parent: PAnyType | null = null,
        readonly attributes: readonly ObjectAttribute[] = [],
        readonly functions: ReadonlyArray<{ readonly name: string; readonly type: PAnyType }> = [],
        readonly equality: readonly string[] | null = null
    ) { super(); }
    /** Object types are the same when their names and members are. */
    override equalsType(other: PTypeValue): boolean {
        return other instanceof PObjectType && (this === other || typeToString(this) === typeToString(other));
    }
}

/** SemVer, or SemVer[range, ...]: the versions within any of the ranges (their texts). */
export class PSemVerType extends PAnyType {
    readonly kind = 'SemVer';
    constructor(readonly ranges: readonly string[] = []) { super(); }
}

/** Timestamp[from, to] / Timespan[from, to]: bounds in nanoseconds (null is unbounded). */
export class PTimeType extends PAnyType {
    /**
     * `rawFraction`: per bound, whether it was given as a Float with a fraction, which Puppet's
     * Timespan prints as its nanoseconds unpadded and untrimmed (`01.500000000`).
     */
    constructor(readonly kind: 'Timestamp' | 'Timespan', readonly from: bigint | null = null, readonly to: bigint | null = null,
        readonly rawFraction: readonly [boolean, boolean] = [false, false]) { super(); }
}

/** Boolean, or Boolean[true] / Boolean[false] (what type() infers for a boolean). */
export class PBooleanType extends PAnyType {
    readonly kind = 'Boolean';
    constructor(readonly value: boolean | null = null) { super(); }
}

/** Integer[from, to]; null bounds are unbounded (default). */
export class PIntegerType extends PAnyType {
    readonly kind = 'Integer';
    constructor(readonly from: bigint | null = null, readonly to: bigint | null = null) { super(); }
}

export class PFloatType extends PAnyType {
    readonly kind = 'Float';
    constructor(readonly from: number | null = null, readonly to: number | null = null) { super(); }
}

/** String, optionally with a size range (an Integer type). */
export class PStringType extends PAnyType {
    readonly kind = 'String';
    /** `value` is set for the type of one exact string, as `Optional['x']` creates. */
    constructor(readonly size: PIntegerType | null = null, readonly value: string | null = null) { super(); }
}

export class PEnumType extends PAnyType {
    readonly kind = 'Enum';
    /** Unique and sorted, as Puppet keeps them: `Enum[b, a, b]` is `Enum['a', 'b']`. */
    readonly values: readonly string[];
    constructor(values: readonly string[], readonly caseInsensitive = false) {
        super();
        this.values = [...new Set(values)].sort();
    }
}

export class PPatternType extends PAnyType {
    readonly kind = 'Pattern';
    constructor(readonly patterns: readonly PRegexp[]) { super(); }
}

export class PRegexpType extends PAnyType {
    readonly kind = 'Regexp';
    constructor(readonly pattern: PRegexp | null = null) { super(); }
}

export class PNotUndefType extends PAnyType {
    readonly kind = 'NotUndef';
    constructor(readonly type: PAnyType | null = null) { super(); }
}

export class PCollectionType extends PAnyType {
    readonly kind = 'Collection';
    constructor(readonly size: PIntegerType | null = null) { super(); }
}

export class PArrayType extends PAnyType {
    readonly kind = 'Array';
    constructor(readonly element: PAnyType | null = null, readonly size: PIntegerType | null = null) { super(); }
}

export class PHashType extends PAnyType {
    readonly kind = 'Hash';
    constructor(readonly key: PAnyType | null = null, readonly value: PAnyType | null = null, readonly size: PIntegerType | null = null) { super(); }
}

export interface StructMember {
    readonly name: string;
    /** `Optional[key]` (or `NotUndef[key]`) as written in the key position. */
    readonly keyType: 'plain' | 'optional' | 'notundef';
    readonly value: PAnyType;
}

export class PStructType extends PAnyType {
    readonly kind = 'Struct';
    constructor(readonly members: readonly StructMember[]) { super(); }
}

export class PTupleType extends PAnyType {
    readonly kind = 'Tuple';
    constructor(readonly types: readonly PAnyType[], readonly size: PIntegerType | null = null) { super(); }
}

export class POptionalType extends PAnyType {
    readonly kind = 'Optional';
    constructor(readonly type: PAnyType | null = null) { super(); }
}

export class PVariantType extends PAnyType {
    readonly kind = 'Variant';
    constructor(readonly types: readonly PAnyType[]) { super(); }
}

export class PTypeType extends PAnyType {
    readonly kind = 'Type';
    constructor(readonly type: PAnyType | null = null) { super(); }
}

/** A resource type or reference: Resource, File, File['/tmp'] (typeName is capitalized, `File`, `Foo::Bar`). */
export class PResourceType extends PAnyType {
    readonly kind = 'Resource';
    constructor(readonly typeName: string | null = null, readonly title: string | null = null) { super(); }
}

/**
 * A reference once stored as a resource's parameter (Puppet converts it to a 3.x Puppet::Resource):
 * typeName capitalized, a class's as `Class` with its name capitalized as the title. As a type it
 * is the resource type it stands for (so a class's is no Type[Class]); as a value it prints
 * `Type[title]` with the title unquoted.
 */
export class PStoredReference extends PResourceType {
    constructor(typeName: string, title: string) { super(typeName, title); }
}

/** Class or Class['name'] (name lower-case as written, without leading ::). */
export class PClassType extends PAnyType {
    readonly kind = 'Class';
    constructor(readonly className: string | null = null) { super(); }
}

export class PIterableType extends PAnyType {
    readonly kind = 'Iterable';
    constructor(readonly type: PAnyType | null = null) { super(); }
}

export class PIteratorType extends PAnyType {
    readonly kind = 'Iterator';
    constructor(readonly type: PAnyType | null = null) { super(); }
}

export class PSensitiveType extends PAnyType {
    readonly kind = 'Sensitive';
    constructor(readonly type: PAnyType | null = null) { super(); }
}

/** A named type alias (`type Port = Integer[1, 65535]`); `resolved` is set once its body is evaluated. */
export class PTypeAliasType extends PAnyType {
    readonly kind = 'Alias';
    resolved: PAnyType | null = null;
    constructor(readonly name: string) { super(); }
}

export const T = {
    any: PSimpleType.of('Any'),
    undef: PSimpleType.of('Undef'),
    default: PSimpleType.of('Default'),
    scalar: PSimpleType.of('Scalar'),
    scalarData: PSimpleType.of('ScalarData'),
    data: PSimpleType.of('Data'),
    richData: PSimpleType.of('RichData'),
    numeric: PSimpleType.of('Numeric'),
    boolean: new PBooleanType(),
    integer: new PIntegerType(),
    float: new PFloatType(),
    string: new PStringType(),
    array: new PArrayType(),
    hash: new PHashType(),
    regexp: new PRegexpType()
} as const;

export type Value = PuppetValue;
