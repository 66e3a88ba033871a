import { capitalizeTypeName } from '../../values/index.js';
import { Exceptions, ObjectClass, RClass, RObject, RSymbol, RubyError, type RValue } from '../objects.js';
import { fromDsl, nameOf, toDsl } from './dsl-values.js';
import type { DslResourceView } from './providers.js';
import type { PluginRuntime } from './runtime.js';

/** A resource object's resource and the type it belongs to. */
export interface BoundResource {
    readonly resource: DslResourceView;
    readonly typeClass: RClass;
    readonly typeName: string;
}

/** The Ruby objects standing for resources (`self` in a type's hooks, `resource` in its providers and attributes). */
export interface ResourceObjects {
    objectFor(typeClass: RClass, typeName: string, resource: DslResourceView): RObject;
    boundOf(obj: RValue): BoundResource | undefined;
    /** An attribute's object for one resource (`self` in its validate/munge blocks): `resource`, `value`, `should`. */
    attributeObject(attrClass: RClass, resource: RObject | null, should: unknown): RObject;
}

/**
 * One object per resource, an instance of its type's class, so the resource a type's validate
 * or autorequire block sees, the one its attributes' blocks reach as `resource` and the one its
 * provider holds are the same object, as in Puppet. Its methods read and write the resource
 * through the apply stage's resource (`self[:x]`, `self[:x] = v`, `should`, `title`, `name`,
 * `fail`, the log levels).
 */
export function defineResourceObjects(rt: PluginRuntime, typeBase: RClass, parameterBase: RClass): ResourceObjects {
    const bound = new WeakMap<RObject, BoundResource>();
    const objects = new WeakMap<DslResourceView, RObject>();
    function objectFor(typeClass: RClass, typeName: string, resource: DslResourceView): RObject {
        let obj = objects.get(resource);
        if (!obj) {
            obj = new RObject(typeClass, `${capitalizeTypeName(typeName)}[${resource.title}]`);
            bound.set(obj, { resource, typeClass, typeName });
            objects.set(resource, obj);
        }
        return obj;
    }
    const attributes = new WeakMap<RObject, { readonly resource: RObject | null; readonly should: unknown }>();
    const viewOf = (self: RValue): DslResourceView | undefined => bound.get(self as RObject)?.resource;
    const puppetError = (): RClass => {
        const c = rt.ns.constants.get('Puppet::Error');
        return c instanceof RClass ? c : Exceptions.RuntimeError;
    };
    const ref = (self: RValue): string => {
        const b = bound.get(self as RObject);
        return b ? `${capitalizeTypeName(b.typeName)}[${b.resource.title}]` : '';
    };
    const read = (self: RValue, args: RValue[]): RValue => fromDsl(viewOf(self)?.get(nameOf(args[0] ?? null)));
    typeBase.define(['[]', 'should', 'value'], read);
    typeBase.define('[]=', (self, args) => {
        viewOf(self)?.set?.(nameOf(args[0] ?? null), toDsl(args[1] ?? null));
        return args[1] ?? null;
    });
    typeBase.define('title', self => viewOf(self)?.title ?? null);
    typeBase.define('name', self => fromDsl(viewOf(self)?.name));
    typeBase.define(['ref', 'to_s'], self => ref(self));
    typeBase.define('fail', (_self, args) => { throw new RubyError(puppetError(), rt.interp.toS(args[0] ?? null)); });
    for (const level of ['debug', 'info', 'notice', 'warning', 'err'] as const) {
        typeBase.define(level, (self, args) => { viewOf(self)?.log?.(level, rt.interp.toS(args[0] ?? null)); return null; });
    }

    // `catalog`: the run's resources as resource objects (`resources`, `resource(type, title)`).
    const catalogClass = new RClass('Puppet::Resource::Catalog', ObjectClass);
    const catalogs = new WeakMap<RObject, DslResourceView>();
    const typeClassOf = (name: string): RClass => {
        const c = rt.interp.send(typeBase, 'type', [RSymbol.of(name)]);
        return c instanceof RClass ? c : typeBase;
    };
    const members = (self: RValue): RObject[] =>
        (catalogs.get(self as RObject)?.catalog?.() ?? []).map(m => objectFor(typeClassOf(m.typeName), m.typeName, m.resource));
    catalogClass.define('resources', self => members(self));
    catalogClass.define('resource', (self, args) => {
        // catalog.resource(:file, '/x') or catalog.resource('File[/x]'), by title or name.
        let type = rt.interp.toS(args[0] ?? null);
        let title = args.length > 1 ? rt.interp.toS(args[1] ?? null) : undefined;
        const m = title === undefined ? /^([^[]+)\[(.*)\]$/s.exec(type) : null;
        if (m) [type, title] = [m[1], m[2]];
        const wanted = capitalizeTypeName(type.toLowerCase());
        return members(self).find(o => {
            const b = bound.get(o);
            return b !== undefined && capitalizeTypeName(b.typeName) === wanted && (b.resource.title === title || fromDsl(b.resource.name) === title);
        }) ?? null;
    });
    typeBase.define('catalog', self => {
        const view = viewOf(self);
        if (!view?.catalog) return null;
        const c = new RObject(catalogClass, '#<Puppet::Resource::Catalog>');
        catalogs.set(c, view);
        return c;
    });

    parameterBase.define('resource', self => attributes.get(self as RObject)?.resource ?? null);
    parameterBase.define(['value', 'should'], self => fromDsl(attributes.get(self as RObject)?.should));

    return {
        objectFor,
        boundOf: obj => bound.get(obj as RObject),
        attributeObject: (attrClass, resource, should) => {
            const obj = new RObject(attrClass, `#<${attrClass.name}>`);
            attributes.set(obj, { resource, should });
            if (resource) obj.ivars.set('resource', resource);
            return obj;
        }
    };
}
