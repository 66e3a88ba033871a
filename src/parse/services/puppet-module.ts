import {
    createDefaultCoreModule, createDefaultSharedCoreModule, EmptyFileSystem, inject,
    type LangiumCoreServices, type LangiumSharedCoreServices, type Module, type PartialLangiumCoreServices
} from 'langium';
import { ModelcGeneratedSharedModule, PuppetGeneratedModule } from '../../../generated/langium/module.js';
import { PuppetLexer } from '../lexer/puppet-lexer.js';
import { GreedyBraceLookahead } from './greedy-lookahead.js';
import { PuppetTokenBuilder } from './token-builder.js';
import { PuppetValueConverter } from './value-converter.js';

export type PuppetServices = LangiumCoreServices;

/** The Puppet language's own services: the hand-written lexer and its companions. */
export const PuppetModule: Module<LangiumCoreServices, PartialLangiumCoreServices> = {
    parser: {
        TokenBuilder: () => new PuppetTokenBuilder(),
        Lexer: services => new PuppetLexer(services),
        ValueConverter: services => new PuppetValueConverter(() => services.parser.Lexer as PuppetLexer),
        ParserConfig: () => ({
            skipValidations: true,
            recoveryEnabled: true,
            lookaheadStrategy: new GreedyBraceLookahead({ logging: () => undefined })
        })
    }
};

/** Creates the shared and Puppet language services (no file system: the parser works on text). */
export function createPuppetServices(): { shared: LangiumSharedCoreServices; Puppet: PuppetServices } {
    const shared = inject(createDefaultSharedCoreModule(EmptyFileSystem), ModelcGeneratedSharedModule);
    const Puppet = inject(createDefaultCoreModule({ shared }), PuppetGeneratedModule, PuppetModule);
    shared.ServiceRegistry.register(Puppet);
    return { shared, Puppet };
}
