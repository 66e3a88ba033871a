/**
 * The dispatches of Puppet 7's core functions that the catalog builder implements, copied from
 * `puppet/functions/*.rb` in declaration order (the first that accepts a call is the one Puppet
 * runs). Each signature is written as Puppet prints it in its error messages: `TYPE NAME`, with
 * `?` for an optional parameter, `*` and `+` for a repeated last one (optional or required), and
 * a `Callable...` (or `BlockType`) entry for the block. Optional parameters keep their declared
 * type (`Optional[Pattern[...]] flags?`); the printed form drops the Optional, as Puppet does.
 * Functions written in Puppet 3.x style (sprintf, template, realize, ...) have no dispatches.
 */

const ITERATE = [
    'Hash[Any, Any] hash, Callable[2, 2] block', 'Hash[Any, Any] hash, Callable[1, 1] block',
    'Iterable enumerable, Callable[2, 2] block', 'Iterable enumerable, Callable[1, 1] block'
];
const STRING_EDIT = ['Numeric arg', 'String arg', 'Iterable[Variant[String, Numeric]] arg'];
const CASE_CHANGE = ['Numeric arg', 'String arg', 'Array[StringData] arg', 'Hash[StringData, StringData] arg'];
const NUMERIC_OR_STRING = ['Numeric val', 'String val'];
const LOG = ['Any values*'];
const MIN_MAX = [
    'Numeric values*', 'String values*', 'Array[Numeric] values, Callable[2, 2] block?', 'Array[String] values, Callable[2, 2] block?',
    'Array values, Callable[2, 2] block?', 'Any values*, Callable[2, 2] block', 'Any values*'
];
const GROUPING = ['Collection collection, Callable[1, 1] block', 'Array array, Callable[2, 2] block', 'Collection collection, Callable[2, 2] block'];
const FIND_PATHS = ['String paths*', 'Array[String] paths_array*'];
const INCLUDING = ['Any names+'];
const HIERA = [
    'Tuple[String, Any, Any, 1, 3] args', 'String key', 'String key, Any default, Any override?', 'String key, Callable[1, 1] default_block',
    'String key, Any override, Callable[1, 1] default_block'
];
const ANNOTATION_TYPE = 'Type[Annotation]';
const PCORE_TYPE = 'Type[Pcore]';
const ANNOTATION_HASH = "Variant[Enum['clear'], Hash[Pcore::MemberName, Any]]";
const ANNOTATIONS = 'Hash[Type[Annotation], Hash[Pcore::MemberName, Any]]';
const TREE_TYPE = 'Variant[Iterator, Array, Hash, Object]';
const TREE = `${TREE_TYPE} tree, OptionsType options?`;

export const DISPATCHES: Readonly<Record<string, readonly string[]>> = {
    abs: NUMERIC_OR_STRING,
    // The logging functions take any values and no block.
    alert: LOG, crit: LOG, debug: LOG, emerg: LOG, err: LOG, info: LOG, notice: LOG, warning: LOG,
    all: ITERATE,
    any: ITERATE,
    annotate: [
        `${ANNOTATION_TYPE} type, Any value, Callable[0, 0] block?`, `${ANNOTATION_TYPE} type, Any value, ${ANNOTATION_HASH} annotation_hash`,
        `${PCORE_TYPE} type, Any value, ${ANNOTATIONS} annotations`
    ],
    assert_type: ['Type type, Any value, Callable[Type, Type] block?', 'String type_string, Any value, Callable[Type, Type] block?'],
    binary_file: ['String path'],
    break: [''],
    call: ['String function_name, Any arguments*, Callable block?', 'Deferred deferred'],
    camelcase: STRING_EDIT,
    capitalize: STRING_EDIT,
    ceiling: NUMERIC_OR_STRING,
    chomp: STRING_EDIT,
    chop: STRING_EDIT,
    compare: [
        'Numeric a, Numeric b', 'String a, String b, Boolean ignore_case?', 'SemVer a, SemVer b', 'Numeric a, Variant[Timespan, Timestamp] b',
        'Timestamp a, Variant[Timestamp, Numeric] b', 'Timespan a, Variant[Timespan, Numeric] b'
    ],
    contain: INCLUDING,
    convert_to: ['Any value, Type type, Any args*, Callable[1, 1] block?'],
    defined: ['Variant[String, Type[CatalogEntry], Type[Type[CatalogEntry]]] vals+'],
    dig: ['Optional[Collection] data, Any arg*'],
    downcase: CASE_CHANGE,
    each: ITERATE,
    epp: ['String path, Hash[Pattern[/^\\w+$/], Any] parameters?'],
    empty: ['Collection coll', 'Sensitive[String] str', 'String str', 'Numeric num', 'Binary bin', 'Undef x'],
    filter: ITERATE,
    find_file: FIND_PATHS,
    find_template: FIND_PATHS,
    flatten: ['Any args*'],
    floor: NUMERIC_OR_STRING,
    get: ['Any value, String dotted_string, Any default_value?, Callable[1, 1] block?'],
    getvar: ['Pattern[/\\A(?:::)?(?:[a-z]\\w*::)*[a-z_]\\w*(?:\\.|\\Z)/] get_string, Any default_value?, Callable[1, 1] block?'],
    group_by: GROUPING,
    hiera: HIERA,
    hiera_array: HIERA,
    hiera_hash: HIERA,
    hiera_include: HIERA,
    include: INCLUDING,
    index: [...ITERATE, 'String str, Variant[String, Regexp] match', 'Iterable enumerable, Any match'],
    inline_epp: ['String template, Hash[Pattern[/^\\w+$/], Any] parameters?'],
    join: ['Array arg, String delimiter?'],
    keys: ['Hash hsh'],
    length: ['Collection arg', 'String arg', 'Binary arg'],
    lest: ['Any arg, Callable[0, 0] block'],
    lookup: [
        'NameType name, ValueType value_type?, MergeType merge?',
        'NameType name, Optional[ValueType] value_type, Optional[MergeType] merge, DefaultValueType default_value',
        'NameType name, ValueType value_type?, MergeType merge?, BlockType block',
        'OptionsWithName options_hash, BlockType block?',
        'Variant[String, Array[String]] name, OptionsWithoutName options_hash, BlockType block?'
    ],
    map: ITERATE,
    match: ['String string, Variant[Any, Type] pattern', 'Array[String] string, Variant[Any, Type] pattern'],
    max: MIN_MAX,
    min: MIN_MAX,
    module_directory: ['String names*', 'Array[String] names*'],
    new: ['Type type, Any args*, Callable block?'],
    next: ['Any value?'],
    partition: GROUPING,
    reduce: ['Iterable enumerable, Callable[2, 2] block', 'Iterable enumerable, Any memo, Callable[2, 2] block'],
    regsubst: [
        "Variant[Array[String], String] target, String pattern, Variant[String, Hash[String, String]] replacement, Optional[Pattern[/^[GEIM]*$/]] flags?, Enum['N', 'E', 'S', 'U'] encoding?",
        'Variant[Array[String], String] target, Variant[Regexp, Type[Regexp]] pattern, Variant[String, Hash[String, String]] replacement, Pattern[/^G?$/] flags?'
    ],
    require: INCLUDING,
    return: ['Any value?'],
    reverse_each: ['Iterable iterable', 'Iterable iterable, Callable[1, 1] block'],
    round: ['Numeric val'],
    rstrip: STRING_EDIT,
    lstrip: STRING_EDIT,
    size: ['Variant[Collection, String, Binary] arg'],
    slice: ['Hash[Any, Any] hash, Integer[1, default] slice_size, Callable block?', 'Iterable enumerable, Integer[1, default] slice_size, Callable block?'],
    sort: ['String string_value, Callable[2, 2] block?', 'Array array_value, Callable[2, 2] block?'],
    split: ['String str, String pattern', 'String str, Regexp pattern', 'String str, Type[Regexp] pattern'],
    step: ['Iterable iterable, Integer[1] step', 'Iterable iterable, Integer[1] step, Callable[1, 1] block'],
    strftime: ['Timespan time_object, String format', 'Timestamp time_object, String format, String timezone?', 'String format, String timezone?'],
    strip: STRING_EDIT,
    then: ['Any arg, Callable[1, 1] block'],
    tree_each: [`${TREE}, Callable[2, 2] block`, `${TREE}, Callable[1, 1] block`, TREE],
    type: ['Any value, Enum[detailed] inference_method?', 'Any value, Enum[reduced] inference_method', 'Any value, Enum[generalized] inference_method'],
    unique: ['String string, Callable[String] block?', 'Hash hash, Callable[Any] block?', 'Array array, Callable[Any] block?', 'Iterable iterable, Callable[Any] block?'],
    unwrap: ['Sensitive arg, Callable block?', 'Any arg, Callable block?'],
    upcase: CASE_CHANGE,
    values: ['Hash hsh'],
    versioncmp: ['String a, String b, Boolean ignore_trailing_zeroes?'],
    with: ['Any arg*, Callable block']
};

/**
 * Puppet's `argument_mismatch` dispatches: tried after the real ones; the first that accepts the
 * call makes the function report its own message instead of the signatures.
 */
export const MISMATCH_DISPATCHES: Readonly<Record<string, readonly string[]>> = {
    compare: ['Comparable a, Comparable b, Any ignore_case*', 'Any a, Any b, Any ignore_case*'],
    getvar: ['String get_string, Any default_value?, Callable block?']
};

/** The functions' local type aliases (`local_types`), by name. */
export const LOCAL_TYPES: Readonly<Record<string, string>> = {
    StringData: 'Variant[String, Numeric, Array[StringData], Hash[StringData, StringData]]',
    OptionsType: "Struct[{container_type => Optional[Type], include_root => Optional[Boolean], include_containers => Optional[Boolean], include_values => Optional[Boolean], order => Optional[Enum[depth_first, breadth_first]], include_refs => Optional[Boolean]}]",
    TimeComparable: 'Variant[Numeric, Timespan, Timestamp]',
    Comparable: 'Variant[String, SemVer, TimeComparable]',
    NameType: 'Variant[String, Array[String]]',
    ValueType: 'Type',
    DefaultValueType: 'Any',
    MergeType: 'Variant[String[1], Hash[String, Scalar]]',
    // Puppet declares `default_value => Optional[DefaultValueType]`; Optional[Any] normalizes to the alias itself.
    OptionsWithName: 'Struct[{name => NameType, value_type => Optional[ValueType], default_value => DefaultValueType, override => Optional[Hash[String, Any]], default_values_hash => Optional[Hash[String, Any]], merge => Optional[MergeType]}]',
    OptionsWithoutName: 'Struct[{value_type => Optional[ValueType], default_value => DefaultValueType, override => Optional[Hash[String, Any]], default_values_hash => Optional[Hash[String, Any]], merge => Optional[MergeType]}]'
};

/** Block types that are aliases (our type system has no parameterized Callable): their printed form and arity. */
export const BLOCK_TYPES: Readonly<Record<string, { readonly display: string; readonly min: number; readonly max: number; readonly types?: readonly string[] }>> = {
    BlockType: { display: 'BlockType = Callable[NameType = Variant[String, Array[String]]]', min: 1, max: 1, types: ['NameType'] }
};

/** Types that print differently in a signature than our type system prints them. */
export const TYPE_DISPLAY: Readonly<Record<string, string>> = {
    // The default Object type prints as `Object` in a signature.
    [TREE_TYPE]: TREE_TYPE,
    // Pcore's types print by name in a signature (and in full in a mismatch).
    [ANNOTATION_TYPE]: ANNOTATION_TYPE, [PCORE_TYPE]: PCORE_TYPE, [ANNOTATION_HASH]: ANNOTATION_HASH, [ANNOTATIONS]: ANNOTATIONS,
    Deferred: "Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}]"
};

/** What a type's new function takes (Puppet's `new_function` of the type), by type kind. */
export interface NewDispatch {
    /** The function's name in messages ('new' for Integer, 'new_float' for Float, ...). */
    readonly name: string;
    readonly sigs: readonly string[];
    readonly mismatch?: readonly string[];
    /** Its local type aliases. */
    readonly types?: Readonly<Record<string, string>>;
}

const INTEGER_PATTERN = '/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/';
const FLOAT_PATTERN = '/\\A[+-]?\\s*(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\\z/';

/** SemanticPuppet's full version pattern (major.minor.patch, prerelease, build). */
const SEMVER_FULL = '(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?';

const DEFERRED_NAME = 'Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/]';

export const NEW_DISPATCHES: Readonly<Record<string, NewDispatch>> = {
    Integer: {
        name: 'new',
        sigs: ['Convertible from, Radix radix?, Boolean abs?', 'NamedArgs hash_args'],
        mismatch: ['Hash hash_args', 'Any from, Integer radix?, Boolean abs?'],
        types: {
            Radix: 'Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]]',
            Convertible: `Variant[Numeric, Boolean, Pattern[${INTEGER_PATTERN}], Timespan, Timestamp]`,
            NamedArgs: 'Struct[{from => Convertible, Optional[radix] => Radix, Optional[abs] => Boolean}]'
        }
    },
    Float: {
        name: 'new_float',
        sigs: ['Convertible from, Boolean abs?', 'NamedArgs hash_args'],
        mismatch: ['Any from, Boolean abs?'],
        types: { Convertible: `Variant[Numeric, Boolean, Pattern[${FLOAT_PATTERN}], Timespan, Timestamp]`, NamedArgs: 'Struct[{from => Convertible, Optional[abs] => Boolean}]' }
    },
    Numeric: {
        name: 'new_numeric',
        sigs: ['Convertible from, Boolean abs?', 'NamedArgs hash_args'],
        mismatch: ['Any from, Boolean abs?'],
        types: { Convertible: `Variant[Integer, Float, Boolean, Pattern[${FLOAT_PATTERN}], Timespan, Timestamp]`, NamedArgs: 'Struct[{from => Convertible, Optional[abs] => Boolean}]' }
    },
    Timespan: {
        name: 'new_timespan',
        sigs: [
            'Variant[Integer, Float] seconds', 'String[1] string, Formats format?',
            'Integer days, Integer hours, Integer minutes, Integer seconds, Integer milliseconds?, Integer microseconds?, Integer nanoseconds?',
            'Struct[{string => String[1], Optional[format] => Formats}] hash_arg',
            'Struct[{Optional[negative] => Boolean, Optional[days] => Integer, Optional[hours] => Integer, Optional[minutes] => Integer, Optional[seconds] => Integer, Optional[milliseconds] => Integer, Optional[microseconds] => Integer, Optional[nanoseconds] => Integer}] hash_arg'
        ],
        types: { Formats: 'Variant[String[2], Array[String[2], 1]]' }
    },
    Timestamp: {
        name: 'new_timestamp',
        sigs: [
            '', 'Variant[Integer, Float] seconds', 'String[1] string, Formats format?, String[1] timezone?',
            'Struct[{string => String[1], Optional[format] => Formats, Optional[timezone] => String[1]}] hash_arg'
        ],
        types: { Formats: 'Variant[String[2], Array[String[2], 1]]' }
    },
    Type: { name: 'new_type', sigs: ['String[1] type_string'] },
    // Error is a Pcore Object type: its new takes the attributes as a hash or one by one.
    Error: {
        name: 'new_Error',
        sigs: [
            "Struct[{'msg' => String[1], 'kind' => Optional[String[1]], 'details' => Optional[Hash[String[1], Data]], 'issue_code' => Optional[String[1]]}] hash",
            'String[1] msg, Optional[String[1]] kind?, Optional[Hash[String[1], Data]] details?, Optional[String[1]] issue_code?'
        ]
    },
    // Init[T]'s own new function takes the one value (T.new then gets it with the init args).
    Init: { name: 'new_Init', sigs: ['Any value'] },
    Sensitive: { name: 'new_Sensitive', sigs: ['Sensitive value', 'Any value'] },
    // Puppet's Ruby names Regexp's new function new_float.
    Regexp: { name: 'new_float', sigs: ['String pattern, Boolean escape?'] },
    SemVer: {
        name: 'new_Version',
        sigs: ['SemVerPattern str', 'PositiveInteger major, PositiveInteger minor, PositiveInteger patch, SemVerQualifier prerelease?, SemVerQualifier build?', 'SemVerHash hash_args'],
        mismatch: ['String str'],
        types: {
            PositiveInteger: 'Integer[0, default]',
            SemVerQualifier: 'Pattern[/\\A(?<part>[0-9A-Za-z-]+)(?:\\.\\g<part>)*\\Z/]',
            SemVerPattern: `Pattern[/\\A${SEMVER_FULL}\\Z/]`,
            SemVerHash: 'Struct[{major => PositiveInteger, minor => PositiveInteger, patch => PositiveInteger, Optional[prerelease] => SemVerQualifier, Optional[build] => SemVerQualifier}]'
        }
    },
    SemVerRange: {
        name: 'new_VersionRange',
        sigs: ['SemVerRangeString str', 'Variant[Default, SemVer] min, Variant[Default, SemVer] max, Boolean exclude_max?', 'SemVerRangeHash hash_args'],
        types: {
            SemVerRangeString: 'String[1]',
            SemVerRangeHash: 'Struct[{min => Variant[Default, SemVer], Optional[max] => Variant[Default, SemVer], Optional[exclude_max] => Boolean}]'
        }
    },
    Deferred: {
        name: 'new_Deferred',
        sigs: [`Struct[{'name' => ${DEFERRED_NAME}, 'arguments' => Optional[Array]}] hash`, `${DEFERRED_NAME} name, Optional[Array] arguments?`]
    },
    Binary: {
        name: 'new_Binary',
        sigs: ['String str, Base64Format format?', 'Array[ByteInteger] byte_array', 'BinaryArgsHash hash_args'],
        types: {
            ByteInteger: 'Integer[0, 255]',
            Base64Format: "Enum['%b', '%u', '%B', '%s', '%r']",
            StringHash: "Struct[{'value' => String, 'format' => Optional[Base64Format]}]",
            ArrayHash: "Struct[{'value' => Array[ByteInteger]}]",
            BinaryArgsHash: 'Variant[StringHash, ArrayHash]'
        }
    },
    String: {
        name: 'new_string',
        sigs: ['Convertible from, Formats string_formats?'],
        types: {
            Convertible: 'Any',
            Format: 'Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/]',
            ContainerFormat: 'Struct[{Optional[format] => Format, Optional[separator] => String, Optional[separator2] => String, Optional[string_formats] => Hash[Type, Format]}]',
            TypeMap: 'Hash[Type, Variant[Format, ContainerFormat]]',
            Formats: 'Variant[Default, String[1], TypeMap]'
        }
    },
    Boolean: {
        name: 'new_boolean',
        sigs: ["Variant[Integer, Float, Boolean, Enum['false', 'true', 'yes', 'no', 'y', 'n', true]] from"],
        mismatch: ['Any from']
    },
    Array: {
        name: 'new_array',
        sigs: ['Variant[Array, Hash, Binary, Iterable] from, Boolean[false] wrap?', 'Any from, Boolean[true] wrap'],
        mismatch: ['Any from, Boolean wrap?']
    },
    Hash: {
        name: 'new_hash',
        sigs: ['TreeArray from, NewHashOption build_option?', 'KeyValueArray from', 'Any from'],
        types: { KeyValueArray: 'Array[Tuple[Any, Any], 1]', TreeArray: 'Array[Tuple[Array, Any], 1]', NewHashOption: 'Enum[tree, hash_tree]' }
    }
};

/**
 * The arity Puppet 3.x functions declare (`newfunction(..., :arity => N)`): N arguments exactly,
 * or at least -(N + 1) when negative. Puppet checks it before calling the function.
 */
export const LEGACY_ARITY: Readonly<Record<string, number>> = {
    create_resources: -3, digest: 1, fail: -1, file: -2, fqdn_rand: -2, generate: -2, inline_template: -2, md5: 1, realize: -2,
    sha1: 1, sha256: 1, shellquote: -1, sprintf: -2, tag: -2, tagged: -2, template: -2
};
