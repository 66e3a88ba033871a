import { EOF, type IOrAlt, type TokenType, type TokenTypeDictionary } from 'chevrotain';
import { AstUtils, GrammarAST, GrammarUtils, type Grammar } from 'langium';
import type { FastPuppetParser } from './fast-parser.js';

/**
 * The fast parser's builder: turns each grammar rule into closures over the parser's recognizer
 * calls (as Langium's parser-builder-base does), once, when the parser is constructed.
 */

/** A grammar assignment (`feature=`, `feature+=`, `feature?=`) resolved when the rules are built. */
export interface Assign {
    readonly operator: '=' | '+=' | '?=';
    readonly feature: string;
}

export type RuleFn = () => unknown;
export type Method = () => void;

interface Ctx {
    readonly parser: FastPuppetParser;
    readonly tokens: TokenTypeDictionary;
    consume: number;
    optional: number;
    subrule: number;
    many: number;
    or: number;
}

function unsupported(what: string): never {
    throw new Error(`fast parser: unsupported grammar feature: ${what}`);
}

export function buildRules(parser: FastPuppetParser, grammar: Grammar, tokens: TokenTypeDictionary): void {
    const reachable = GrammarUtils.getAllReachableRules(grammar, false);
    for (const rule of grammar.rules) {
        if (!reachable.has(rule)) {
            continue;
        }
        const ctx: Ctx = { parser, tokens, consume: 1, optional: 1, subrule: 1, many: 1, or: 1 };
        if (GrammarAST.isParserRule(rule)) {
            if (rule.parameters.length > 0) {
                unsupported('rule parameters');
            }
            parser.fpDefineRule(rule, buildElement(ctx, rule.definition));
        }
    }
    for (const rule of grammar.rules) {
        if (reachable.has(rule) && GrammarAST.isInfixRule(rule)) {
            parser.fpDefineRule(rule, buildInfixRule(parser, tokens, rule));
        }
    }
}

function assignmentOf(element: GrammarAST.AbstractElement): Assign | undefined {
    const a = AstUtils.getContainerOfType(element, GrammarAST.isAssignment);
    if (!a) {
        return undefined;
    }
    if (GrammarAST.isCrossReference(a.terminal)) {
        unsupported('cross-references');
    }
    return { operator: a.operator, feature: a.feature };
}

function tokenOf(ctx: Ctx, name: string): TokenType {
    const t = ctx.tokens[name];
    if (!t) {
        throw new Error(`fast parser: no token type ${name}`);
    }
    return t;
}

function buildElement(ctx: Ctx, element: GrammarAST.AbstractElement): Method {
    let method: Method;
    const parser = ctx.parser;
    if (GrammarAST.isGroup(element) && element.guardCondition) {
        unsupported('guard conditions');
    }
    if (GrammarAST.isKeyword(element)) {
        const idx = ctx.consume++;
        const token = tokenOf(ctx, element.value);
        const assign = assignmentOf(element);
        method = () => parser.fpToken(idx, token, element, assign, true);
    } else if (GrammarAST.isAction(element)) {
        const type = GrammarUtils.getTypeName(element);
        const assign: Assign | undefined = element.feature && element.operator
            ? { operator: element.operator === '+=' ? '+=' : '=', feature: element.feature } : undefined;
        method = () => parser.fpAction(type, element, assign);
    } else if (GrammarAST.isAssignment(element)) {
        method = buildElement(ctx, element.terminal);
    } else if (GrammarAST.isRuleCall(element)) {
        const rule = element.rule.ref;
        if (element.arguments.length > 0) {
            unsupported('rule arguments');
        }
        if (GrammarAST.isParserRule(rule) || GrammarAST.isInfixRule(rule)) {
            const idx = ctx.subrule++;
            const fragment = GrammarAST.isParserRule(rule) && rule.fragment;
            const assign = assignmentOf(element);
            let fn: RuleFn | undefined;
            method = () => {
                fn ??= parser.ruleFn(rule.name);
                parser.fpCall(idx, fn, fragment, element, assign);
            };
        } else if (GrammarAST.isTerminalRule(rule)) {
            const idx = ctx.consume++;
            const token = tokenOf(ctx, rule.name);
            const assign = assignmentOf(element);
            method = () => parser.fpToken(idx, token, element, assign, false);
        } else {
            return unsupported(`rule call ${element.rule.$refText}`);
        }
    } else if (GrammarAST.isAlternatives(element)) {
        if (element.elements.length === 1) {
            method = buildElement(ctx, element.elements[0] as GrammarAST.AbstractElement);
        } else {
            const alts: Array<IOrAlt<void>> = element.elements.map(e => ({ ALT: buildElement(ctx, e) }));
            const idx = ctx.or++;
            method = () => parser.fpOr(idx, alts);
        }
    } else if (GrammarAST.isGroup(element)) {
        const methods = element.elements.map(e => buildElement(ctx, e));
        method = () => {
            for (const m of methods) {
                m();
            }
        };
    } else if (GrammarAST.isEndOfFile(element)) {
        const idx = ctx.consume++;
        method = () => parser.fpToken(idx, EOF, element, undefined, true);
    } else {
        return unsupported(element.$type);
    }
    switch (element.cardinality) {
        case undefined:
            return method;
        case '?': {
            const idx = ctx.optional++;
            return () => parser.fpOption(idx, method);
        }
        case '*': {
            const idx = ctx.many++;
            return () => parser.fpMany(idx, method);
        }
        case '+': {
            const idx = ctx.many++;
            return () => parser.fpAtLeastOne(idx, method);
        }
    }
}

/** `infix X on Operand: ops > ...`: parts and operators, with Langium's synthetic grammar elements. */
function buildInfixRule(parser: FastPuppetParser, tokens: TokenTypeDictionary, rule: GrammarAST.InfixRule): Method {
    const operand = rule.call.rule.ref;
    if (!operand) {
        throw new Error(`fast parser: unresolved infix operand of ${rule.name}`);
    }
    const keywords = rule.operators.precedences.flatMap(p => p.operators);
    const outerGroup = { $type: 'Group', elements: [] as unknown[] };
    const part1 = { $container: outerGroup, $type: 'Assignment', feature: 'parts', operator: '+=', terminal: rule.call };
    const innerGroup = { $container: outerGroup, $type: 'Group', elements: [] as unknown[], cardinality: '*' };
    outerGroup.elements.push(part1, innerGroup);
    const operatorAssignment = {
        $container: innerGroup, $type: 'Assignment', feature: 'operators', operator: '+=',
        terminal: { $type: 'Alternatives', elements: keywords }
    };
    const part2 = { ...part1, $container: innerGroup };
    innerGroup.elements.push(operatorAssignment, part2);
    const partsAssign: Assign = { operator: '+=', feature: 'parts' };
    const operatorsAssign: Assign = { operator: '+=', feature: 'operators' };
    const opFeature = operatorAssignment as unknown as GrammarAST.AbstractElement;
    const alts: Array<IOrAlt<void>> = keywords.map((k, index) => {
        const token = tokens[k.value];
        if (!token) {
            throw new Error(`fast parser: no token type ${k.value}`);
        }
        return { ALT: () => parser.fpToken(index, token, opFeature, operatorsAssign, true) };
    });
    let fn: RuleFn | undefined;
    const tail = (): void => {
        parser.fpOr(0, alts);
        parser.fpCall(1, fn as RuleFn, false, part2 as unknown as GrammarAST.AbstractElement, partsAssign);
    };
    return () => {
        fn ??= parser.ruleFn(operand.name);
        parser.fpCall(0, fn, false, part1 as unknown as GrammarAST.AbstractElement, partsAssign);
        parser.fpMany(0, tail);
    };
}
