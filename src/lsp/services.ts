import {
    DefaultDocumentBuilder, DefaultLinker, DefaultScopeComputation, DefaultWorkspaceManager, EmptyFileSystem, inject, MultiMap, URI, type AstNodeDescription, type LangiumDocument, type LocalSymbols, type Module,
    type ReferenceDescription, type ReferenceDescriptionProvider
} from 'langium';
import {
    createDefaultModule, createDefaultSharedModule, type DefaultSharedModuleContext, type LangiumServices, type LangiumSharedServices,
    type PartialLangiumServices, type PartialLangiumSharedServices
} from 'langium/lsp';
import type { Connection } from 'vscode-languageserver';
import { ModelcGeneratedSharedModule, PuppetGeneratedModule } from '../../generated/langium/module.js';
import { PuppetModule } from '../parse/index.js';
import type { Program } from '../../generated/langium/ast.js';
import { PuppetCompletionProvider } from './completion.js';
import { PuppetDocumentValidator } from './diagnostics.js';
import { LinkFollowingFileSystem, PuppetDocumentFactory } from './documents.js';
import { PuppetHoverProvider } from './hover.js';
import { PuppetDefinitionProvider, PuppetDocumentHighlightProvider, PuppetReferencesProvider } from './navigation.js';
import { NodeValues, type LspHost, type NodeSetting } from './node-values.js';
import { PuppetCodeLensProvider, PuppetDocumentSymbolProvider, PuppetSemanticTokenProvider, PuppetWorkspaceSymbolProvider } from './outline.js';
import { sitesOf } from './sites.js';
import { PuppetWorkspace } from './workspace.js';

/** The modelc services beside Langium's: the environment index and the chosen node's values. */
export interface ModelcLspAddedServices {
    readonly modelc: {
        readonly Workspace: PuppetWorkspace;
        readonly NodeValues: NodeValues;
    };
}

export type PuppetLspServices = LangiumServices & ModelcLspAddedServices;

/** Exports every class, define, function and type alias by its full name (workspace symbols, indexing). */
class PuppetScopeComputation extends DefaultScopeComputation {
    override collectExportedSymbols(document: LangiumDocument): Promise<AstNodeDescription[]> {
        const out: AstNodeDescription[] = [];
        for (const s of sitesOf(document.parseResult.value as Program)) {
            if (s.role === 'definition' && s.kinds[0] !== 'variable') out.push(this.descriptions.createDescription(s.node, s.name, document));
        }
        return Promise.resolve(out);
    }

    /** Puppet resolves names dynamically, not through Langium's scopes: no local symbol tables. */
    override collectLocalSymbols(): Promise<LocalSymbols> {
        return Promise.resolve(new MultiMap());
    }
}

/**
 * The grammar has no cross-references (Puppet names are resolved by the site index): linking and
 * indexing references would only walk every AST again on each keystroke.
 */
class NoCrossReferences extends DefaultLinker {
    override link(): Promise<void> {
        return Promise.resolve();
    }
}

class NoReferenceDescriptions implements ReferenceDescriptionProvider {
    createDescriptions(): Promise<ReferenceDescription[]> {
        return Promise.resolve([]);
    }
}

function puppetLspModule(host: LspHost): Module<PuppetLspServices, PartialLangiumServices & ModelcLspAddedServices> {
    return {
        LanguageMetaData: () => ({ languageId: 'puppet', fileExtensions: ['.pp', '.epp'], caseInsensitive: false, mode: 'production' }),
        references: {
            ScopeComputation: services => new PuppetScopeComputation(services),
            Linker: services => new NoCrossReferences(services)
        },
        workspace: {
            ReferenceDescriptionProvider: () => new NoReferenceDescriptions()
        },
        validation: {
            DocumentValidator: () => new PuppetDocumentValidator()
        },
        lsp: {
            DefinitionProvider: services => new PuppetDefinitionProvider(services.modelc.Workspace),
            ReferencesProvider: services => new PuppetReferencesProvider(services.modelc.Workspace),
            HoverProvider: services => new PuppetHoverProvider(services.modelc.Workspace, services.modelc.NodeValues),
            CompletionProvider: services => new PuppetCompletionProvider(services.modelc.Workspace),
            DocumentSymbolProvider: () => new PuppetDocumentSymbolProvider(),
            CodeLensProvider: services => new PuppetCodeLensProvider(services.modelc.NodeValues),
            SemanticTokenProvider: services => new PuppetSemanticTokenProvider(services),
            DocumentHighlightProvider: () => new PuppetDocumentHighlightProvider(),
            // Langium's defaults for these follow cross-references, which Puppet's by-name
            // resolution does not make: the server does not offer them.
            RenameProvider: () => undefined,
            TypeProvider: () => undefined,
            ImplementationProvider: () => undefined,
            DeclarationProvider: () => undefined,
            CodeActionProvider: () => undefined,
            Formatter: () => undefined
        },
        modelc: {
            Workspace: services => new PuppetWorkspace(services.shared.workspace.LangiumDocuments),
            NodeValues: services => new NodeValues(() => services.modelc.Workspace.root, host)
        }
    };
}

/**
 * The whole environment is checked when it is opened (its problems show without opening each
 * file): the diagnostics were made by the parse, so this costs no second pass.
 */
class PuppetWorkspaceManager extends DefaultWorkspaceManager {
    override initialBuildOptions = { validation: true };
}

/**
 * Every build validates fully (one validator, the CLI's checks), so no document's results are
 * ever partial: the check Langium makes for it over every document on each keystroke is skipped.
 */
class PuppetDocumentBuilder extends DefaultDocumentBuilder {
    protected override resultsAreIncomplete(): boolean {
        return false;
    }
}

const PuppetSharedLspModule: Module<LangiumSharedServices, PartialLangiumSharedServices> = {
    workspace: {
        LangiumDocumentFactory: services => new PuppetDocumentFactory(services),
        WorkspaceManager: services => new PuppetWorkspaceManager(services),
        DocumentBuilder: services => new PuppetDocumentBuilder(services)
    },
    lsp: {
        // One language: the Puppet services' workspace index answers for the whole server.
        WorkspaceSymbolProvider: services => new PuppetWorkspaceSymbolProvider(
            () => (services.ServiceRegistry.all[0] as PuppetLspServices).modelc.Workspace)
    }
};

export interface CreateOptions {
    readonly connection?: Connection;
    readonly host?: LspHost;
    /** Read files from disk (the server); the default reads nothing (tests of single documents). */
    readonly fileSystem?: boolean;
}

/** Langium's LSP services over the Puppet grammar and modelc's parser, checker and stages. */
export function createPuppetLspServices(options: CreateOptions = {}): { shared: LangiumSharedServices; Puppet: PuppetLspServices } {
    const context: DefaultSharedModuleContext = {
        ...(options.fileSystem ? { fileSystemProvider: () => new LinkFollowingFileSystem() } : EmptyFileSystem),
        ...(options.connection ? { connection: options.connection } : {})
    };
    const shared = inject(createDefaultSharedModule(context), ModelcGeneratedSharedModule, PuppetSharedLspModule);
    const Puppet = inject(createDefaultModule({ shared }), PuppetGeneratedModule, PuppetModule, puppetLspModule(options.host ?? {}));
    shared.ServiceRegistry.register(Puppet);
    wire(shared, Puppet);
    return { shared, Puppet };
}

/** The environment is the first workspace folder; the node comes from the client's settings. */
function wire(shared: LangiumSharedServices, Puppet: PuppetLspServices): void {
    const { Workspace, NodeValues: values } = Puppet.modelc;
    shared.lsp.LanguageServer.onInitialize(params => {
        const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
        Workspace.setRoot(folder ? URI.parse(folder).fsPath : undefined);
        values.configure(nodeSetting((params.initializationOptions as { node?: unknown } | undefined)?.node));
    });
    shared.workspace.ConfigurationProvider.onConfigurationSectionUpdate(update => {
        if (update.section === 'modelc') values.configure(nodeSetting((update.configuration as { node?: unknown } | undefined)?.node));
    });
    shared.workspace.DocumentBuilder.onUpdate(() => {
        values.invalidate();
        Workspace.invalidate();
    });
}

/** The `modelc.node` setting: `{certname, facts}` or a certname string. */
function nodeSetting(raw: unknown): NodeSetting | undefined {
    if (typeof raw === 'string') return raw === '' ? undefined : { certname: raw };
    if (typeof raw !== 'object' || raw === null) return undefined;
    const r = raw as Record<string, unknown>;
    const str = (k: string): string | undefined => (typeof r[k] === 'string' && r[k] !== '' ? r[k] : undefined);
    const certname = str('certname');
    const facts = str('facts');
    const environment = str('environment');
    return { ...(certname ? { certname } : {}), ...(facts ? { facts } : {}), ...(environment ? { environment } : {}) };
}
