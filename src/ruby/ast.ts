/**
 * The Ruby subset a template's code is parsed into. Every node keeps the template line it
 * starts on, which is what Puppet's error for a template file reports.
 */
export type RNode =
    | { $type: 'Nil'; line: number }
    | { $type: 'Bool'; line: number; value: boolean }
    | { $type: 'Self'; line: number }
    | { $type: 'Int'; line: number; value: bigint }
    | { $type: 'Float'; line: number; value: number }
    | { $type: 'Str'; line: number; parts: StrPart[] }
    | { $type: 'Sym'; line: number; parts: StrPart[] }
    | { $type: 'Regex'; line: number; parts: StrPart[]; flags: string }
    | { $type: 'ArrayLit'; line: number; elements: RNode[] }
    | { $type: 'HashLit'; line: number; entries: Array<[RNode, RNode] | RNode> }
    | { $type: 'RangeLit'; line: number; from: RNode | null; to: RNode | null; exclusive: boolean }
    | { $type: 'LVar'; line: number; name: string }
    | { $type: 'IVar'; line: number; name: string }
    | { $type: 'GVar'; line: number; name: string }
    | { $type: 'NthRef'; line: number; n: number }
    | { $type: 'Const'; line: number; scope: RNode | null; top: boolean; name: string; span?: Span }
    | { $type: 'Call'; line: number; recv: RNode | null; name: string; args: RNode[]; block: BlockNode | null; blockArg: RNode | null; safe: boolean; vcall: boolean }
    | { $type: 'Splat'; line: number; value: RNode }
    | { $type: 'DoubleSplat'; line: number; value: RNode }
    | { $type: 'Not'; line: number; value: RNode }
    | { $type: 'And'; line: number; left: RNode; right: RNode }
    | { $type: 'Or'; line: number; left: RNode; right: RNode }
    | { $type: 'Defined'; line: number; value: RNode }
    | { $type: 'If'; line: number; cond: RNode; then: RNode[]; else: RNode[] }
    | { $type: 'While'; line: number; cond: RNode; body: RNode[]; until: boolean; doWhile: boolean }
    | { $type: 'For'; line: number; target: Target; iter: RNode; body: RNode[] }
    | { $type: 'Case'; line: number; subject: RNode | null; whens: Array<{ values: RNode[]; body: RNode[] }>; else: RNode[] | null }
    | { $type: 'Assign'; line: number; target: Target; value: RNode }
    | { $type: 'OpAssign'; line: number; target: Target; op: string; value: RNode }
    | { $type: 'MultiAssign'; line: number; targets: Target[]; splat: number; value: RNode }
    | { $type: 'Begin'; line: number; body: RNode[]; rescues: Rescue[]; elseBody: RNode[] | null; ensure: RNode[] | null }
    | { $type: 'RescueMod'; line: number; body: RNode; rescue: RNode }
    | { $type: 'Break'; line: number; value: RNode | null }
    | { $type: 'Next'; line: number; value: RNode | null }
    | { $type: 'Redo'; line: number }
    | { $type: 'Return'; line: number; value: RNode | null }
    | { $type: 'Seq'; line: number; body: RNode[] }
    /** `-> {}` and `lambda {}`; `proc {}` (with `proc`) has a block's argument rules. */
    | { $type: 'Lambda'; line: number; block: BlockNode; proc?: boolean }
    /** `def name` or, with `singleton`, `def self.name` / `def Const.name`. */
    | { $type: 'Def'; line: number; name: string; params: Param[]; body: RNode; singleton: RNode | null }
    | { $type: 'ClassDef'; line: number; path: NodeOf<'Const'>; superclass: RNode | null; body: RNode }
    | { $type: 'ModuleDef'; line: number; path: NodeOf<'Const'>; body: RNode }
    /** `class << self ... end`: definitions on the object's singleton class. */
    | { $type: 'SingletonClass'; line: number; target: RNode; body: RNode }
    | { $type: 'Yield'; line: number; args: RNode[] }
    /** `super` alone passes the method's own arguments (`args` null); `super(...)` passes these. */
    | { $type: 'Super'; line: number; args: RNode[] | null; block: BlockNode | null; blockArg: RNode | null }
    | { $type: 'Retry'; line: number }
    | { $type: 'Alias'; line: number; to: string; from: string }
    | { $type: 'Unsupported'; line: number; what: string }
    /** Template text, appended to the output as is. */
    | { $type: 'ErbText'; line: number; text: string }
    /** `<%= ... %>`: the code's value, through `to_s`, appended to the output. */
    | { $type: 'ErbInsert'; line: number; body: RNode[] };

export type StrPart = string | RNode[];

/** What can stand left of `=`. */
export type Target =
    | { $type: 'LVar'; line: number; name: string }
    | { $type: 'IVar'; line: number; name: string }
    | { $type: 'GVar'; line: number; name: string }
    | { $type: 'Index'; line: number; recv: RNode; args: RNode[] }
    | { $type: 'Attr'; line: number; recv: RNode; name: string }
    | { $type: 'Const'; line: number; scope: RNode | null; top: boolean; name: string; span?: Span }
    | { $type: 'Nested'; line: number; targets: Target[]; splat: number };

export interface Rescue {
    readonly classes: RNode[];
    readonly variable: Target | null;
    readonly body: RNode[];
}

export interface Param {
    /** `key` is a keyword parameter (`name:` required, `name: v` optional), `keyrest` is `**opts`. */
    readonly kind: 'req' | 'opt' | 'rest' | 'block' | 'nested' | 'key' | 'keyrest';
    readonly name: string;
    readonly value?: RNode;
    readonly nested?: Param[];
}

export interface BlockNode {
    readonly line: number;
    readonly params: Param[];
    /** `{ |x| }` takes one array argument whole; `{ |x, y| }` and `{ |x, | }` spread it. */
    readonly spreads: boolean;
    readonly body: RNode[];
}

export type NodeOf<T extends RNode['$type']> = Extract<RNode, { $type: T }>;

/** Where on its line a construct is (1-based column, width): what Ruby's error_highlight marks. */
export interface Span { readonly col: number; readonly width: number }

export function spanOf(t: { readonly col?: number }, width: number): Span | undefined {
    return t.col === undefined ? undefined : { col: t.col, width };
}
