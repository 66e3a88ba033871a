import {
    createDefaultCoreModule, createDefaultSharedCoreModule, inject, EmptyFileSystem,
    type DefaultSharedCoreModuleContext, type LangiumCoreServices, type LangiumSharedCoreServices, type Module,
    type PartialLangiumCoreServices
} from 'langium';
import { MetamodelGeneratedModule, ModelcGeneratedSharedModule } from '../../../generated/langium/module.js';
import { MetamodelValidator, registerMetamodelChecks } from './metamodel-validator.js';

export interface MetamodelAddedServices {
    validation: {
        MetamodelValidator: MetamodelValidator;
    };
}

export type MetamodelServices = LangiumCoreServices & MetamodelAddedServices;

export const MetamodelModule: Module<MetamodelServices, PartialLangiumCoreServices & MetamodelAddedServices> = {
    validation: {
        MetamodelValidator: () => new MetamodelValidator()
    }
};

export function createMetamodelServices(context: DefaultSharedCoreModuleContext = EmptyFileSystem): {
    shared: LangiumSharedCoreServices;
    metamodel: MetamodelServices;
} {
    const shared = inject(createDefaultSharedCoreModule(context), ModelcGeneratedSharedModule);
    const metamodel = inject(createDefaultCoreModule({ shared }), MetamodelGeneratedModule, MetamodelModule);
    shared.ServiceRegistry.register(metamodel);
    registerMetamodelChecks(metamodel);
    return { shared, metamodel };
}
