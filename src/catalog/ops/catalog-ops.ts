import type { ClassResource, CollectExpression, RelationshipExpression, ResourceExpression } from '../../../generated/langium/ast.js';
import type { PuppetValue } from '../../values/index.js';
import type { Where } from '../errors.js';
import type { CatalogResource } from '../resource.js';
import type { Attr, CatalogRuntime, CatalogStatements, DeclarationMode, ExpressionEvaluator } from '../runtime.js';
import type { Scope } from '../scope.js';
import * as classes from './classes.js';
import * as collectors from './collectors.js';
import { evaluateGenerators, finish } from './finish.js';
import { evaluateNode } from './nodes.js';
import { relationship } from './relationships.js';
import { declare, resourceExpression } from './resources.js';
import { OpsState } from './state.js';

/**
 * The catalog side of evaluation for one compilation: the statements the evaluator delegates
 * and the phases the compiler runs (boot, node, lazy generators, finish). The work is done by
 * one file per concern over a shared OpsState.
 */
export class CatalogOps implements CatalogStatements {
    private readonly s: OpsState;

    constructor(rt: CatalogRuntime, ev: ExpressionEvaluator, settings: ReadonlyMap<string, string>) {
        this.s = new OpsState(rt, ev, settings);
    }

    /** The scope of a class evaluated so far ('' is top scope). */
    classScope(name: string): Scope | undefined {
        return this.s.classScopes.get(name);
    }

    boot(top: Scope): void { classes.boot(this.s, top); }
    evaluateNode(top: Scope): Scope | undefined { return evaluateNode(this.s, top); }
    declareLazyClass(name: string, scope: Scope): void { classes.declareLazyClass(this.s, name, scope); }
    evaluateGenerators(): void { evaluateGenerators(this.s); }
    finish(): void { finish(this.s); }

    resourceExpression(e: ResourceExpression, scope: Scope, mode: DeclarationMode): PuppetValue { return resourceExpression(this.s, e, scope, mode); }
    classResource(e: ClassResource, scope: Scope): PuppetValue { return classes.classResource(this.s, e, scope); }
    collect(e: CollectExpression, scope: Scope): PuppetValue { return collectors.collect(this.s, e, scope); }
    relationship(e: RelationshipExpression, scope: Scope): PuppetValue { return relationship(this.s, e, scope); }
    declare(typeName: string, titleValue: PuppetValue, attrs: Attr[], scope: Scope, mode: DeclarationMode, where: Where): CatalogResource | undefined {
        return declare(this.s, typeName, titleValue, attrs, scope, mode, where);
    }
    includeClass(name: string, scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource {
        return classes.includeClass(this.s, name, scope, how, where);
    }

    includeClasses(names: readonly string[], scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource[] {
        return classes.includeClasses(this.s, names, scope, how, where);
    }
    realize(refs: PuppetValue[]): void { collectors.realize(this.s, refs); }
    isDeclared(type: string, title: string): boolean { return this.s.catalog.find(type, title) !== undefined; }
}
