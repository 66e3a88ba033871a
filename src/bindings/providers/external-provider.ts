import type { ContributedBindings, NamedBindings, NamedBindingsOrSubtype } from '../../../generated/model/bindings.js';
import { isUserError, UserError } from '../../common/index.js';
import { decodeJson } from '../../model/index.js';
import { BindingsIssues } from '../issues.js';
import { requestJson, runProgram, type ProgramCommand, type ProvidersConfig } from './programs.js';
import { fail, splitUri, type BindingsProvider, type LayerInfo, type ProviderContext } from './provider.js';

/**
 * An external bindings provider (ARM-8 "Custom Bindings Provider"): the program configured for a
 * scheme is run as `COMMAND URI` with the request (`{uri, node, environment, facts}`) as JSON on
 * stdin, and prints a Bindings model as JSON (EMF-JSON v2): a ContributedBindings or a
 * NamedBindings. The model is decoded with the Bindings schema before anything uses it; a bad
 * model is BIND_EXTERNAL_MODEL with the JSON path of each problem. Expansion is the identity:
 * wildcards are the program's business.
 */
export class ExternalBindingsProvider implements BindingsProvider {
    constructor(readonly scheme: string, private readonly command: ProgramCommand, private readonly ctx: ProviderContext, private readonly config: ProvidersConfig) {}

    expand(uri: string): string[] {
        const parts = splitUri(uri);
        return [`${this.scheme}:${parts?.path ?? ''}`];
    }

    contribute(uri: string, pattern: string, optional: boolean, layer?: LayerInfo): ContributedBindings | undefined {
        const stdout = runProgram(this.command, [uri], this.config, BindingsIssues.BIND_EXTERNAL_FAILED, requestJson(this.ctx, uri, layer));
        const file = `${this.scheme}:${this.command.join(' ')}`;
        if (stdout.trim() === '') {
            // Nothing printed: the program has no bindings for this URI.
            if (optional) return undefined;
            fail(BindingsIssues.BIND_NOT_FOUND, `Cannot load bindings '${uri}' - no bindings found.`, { file });
        }
        let root: { readonly $type: string };
        try {
            root = decodeJson(stdout, file, { kind: 'bindings' }).root as unknown as { readonly $type: string };
        } catch (e) {
            if (!isUserError(e)) throw e;
            throw new UserError(e.diagnostics.map(d => ({ ...d, code: BindingsIssues.BIND_EXTERNAL_MODEL, message: `${d.code}: ${d.message}` })));
        }
        const source = { $type: 'ContributionSource' as const, scheme: this.scheme, uri, pattern, provider: this.command.join(' '), optional };
        switch (root.$type) {
            case 'ContributedBindings': {
                const c = root as ContributedBindings;
                const src = { ...source, ...(c.source ?? {}), scheme: this.scheme, uri };
                return { ...c, source: src, bindings: (c.bindings ?? []).map((nb): NamedBindingsOrSubtype => ({ ...nb, contributedBy: src })) };
            }
            case 'NamedBindings': {
                const nb = root as NamedBindings;
                return { $type: 'ContributedBindings', name: uri, source, bindings: [{ ...nb, contributedBy: source }] };
            }
            default:
                fail(BindingsIssues.BIND_EXTERNAL_MODEL, `an external provider must print a ContributedBindings or NamedBindings model, not ${root.$type}`, { file, path: '/$type' });
        }
    }
}
