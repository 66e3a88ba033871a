import java.io.File;
import java.util.List;

import org.eclipse.emf.common.util.URI;
import org.eclipse.emf.ecore.EClass;
import org.eclipse.emf.ecore.EObject;
import org.eclipse.emf.ecore.EPackage;
import org.eclipse.emf.ecore.EcorePackage;
import org.eclipse.emf.ecore.resource.Resource;
import org.eclipse.emf.ecore.resource.ResourceSet;
import org.eclipse.emf.ecore.resource.impl.ResourceSetImpl;
import org.eclipse.emf.ecore.util.EcoreUtil;
import org.eclipse.emf.ecore.xmi.impl.EcoreResourceFactoryImpl;
import org.eclipse.emf.ecore.xmi.impl.XMIResourceFactoryImpl;

/**
 * A Java tool that builds a Bindings model with EMF's reflective API (no generated code) from
 * modelc's EMF-profile bindings.ecore and saves it as XMI, as any EMF-based tool would:
 *
 * <pre>
 *   java MakeBindings bindings.ecore OUT.xmi KEY TYPE VALUE_JSON
 * </pre>
 *
 * The model has one layer 'site' holding one named bindings 'java::made' that binds KEY (of
 * Puppet type TYPE) to the constant VALUE_JSON (a Data value is its rich-data JSON text).
 */
public final class MakeBindings {
    private MakeBindings() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: MakeBindings bindings.ecore OUT.xmi KEY TYPE VALUE_JSON");
            System.exit(2);
        }
        EcorePackage.eINSTANCE.eClass();
        ResourceSet rs = new ResourceSetImpl();
        rs.getResourceFactoryRegistry().getExtensionToFactoryMap().put("ecore", new EcoreResourceFactoryImpl());
        rs.getResourceFactoryRegistry().getExtensionToFactoryMap().put("*", new XMIResourceFactoryImpl());
        Resource ecore = rs.getResource(URI.createFileURI(new File(args[0]).getAbsolutePath()), true);
        EPackage pkg = (EPackage) ecore.getContents().get(0);
        rs.getPackageRegistry().put(pkg.getNsURI(), pkg);

        EObject root = create(pkg, "LayeredBindings");
        EObject layer = create(pkg, "NamedLayer");
        set(layer, "name", "site");
        EObject named = create(pkg, "NamedBindings");
        set(named, "name", "java::made");
        EObject binding = create(pkg, "Binding");
        set(binding, "name", args[2]);
        set(binding, "type", args[3]);
        EObject producer = create(pkg, "ConstantProducerDescriptor");
        set(producer, "value", args[4]);
        set(binding, "producer", producer);
        add(named, "bindings", binding);
        add(layer, "bindings", named);
        add(root, "layers", layer);

        Resource out = rs.createResource(URI.createFileURI(new File(args[1]).getAbsolutePath()));
        out.getContents().add(root);
        out.save(null);
        System.out.println("saved " + args[1]);
    }

    private static EObject create(EPackage pkg, String className) {
        EClass c = (EClass) pkg.getEClassifier(className);
        if (c == null) {
            throw new IllegalArgumentException("no class " + className + " in " + pkg.getNsURI());
        }
        return EcoreUtil.create(c);
    }

    private static void set(EObject o, String feature, Object value) {
        o.eSet(o.eClass().getEStructuralFeature(feature), value);
    }

    @SuppressWarnings("unchecked")
    private static void add(EObject o, String feature, EObject value) {
        ((List<EObject>) o.eGet(o.eClass().getEStructuralFeature(feature))).add(value);
    }
}
