import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.eclipse.emf.common.util.Diagnostic;
import org.eclipse.emf.common.util.EList;
import org.eclipse.emf.common.util.Enumerator;
import org.eclipse.emf.common.util.URI;
import org.eclipse.emf.ecore.EAttribute;
import org.eclipse.emf.ecore.EClass;
import org.eclipse.emf.ecore.EClassifier;
import org.eclipse.emf.ecore.EDataType;
import org.eclipse.emf.ecore.EEnum;
import org.eclipse.emf.ecore.EObject;
import org.eclipse.emf.ecore.EPackage;
import org.eclipse.emf.ecore.EReference;
import org.eclipse.emf.ecore.EStructuralFeature;
import org.eclipse.emf.ecore.EcorePackage;
import org.eclipse.emf.ecore.resource.Resource;
import org.eclipse.emf.ecore.resource.ResourceSet;
import org.eclipse.emf.ecore.resource.impl.ResourceSetImpl;
import org.eclipse.emf.ecore.util.Diagnostician;
import org.eclipse.emf.ecore.util.EcoreUtil;
import org.eclipse.emf.ecore.xmi.impl.EcoreResourceFactoryImpl;
import org.eclipse.emf.ecore.xmi.impl.XMIResourceFactoryImpl;

/**
 * Interop check of modelc's outputs with stock Eclipse EMF (the Debian jars).
 *
 * <pre>
 *   java EmfCheck ecore FILE.ecore...            load, resolve and validate every EPackage
 *   java EmfCheck xmi FILE.ecore... INSTANCE.xmi load an instance and print a canonical JSON dump
 * </pre>
 *
 * Exit 0 = everything loaded and validated; 1 = a problem (printed on stderr); 2 = usage.
 *
 * The dump is the shape shared with rgen_check.rb and interop.test.ts: a JSON array of roots, each
 * object {"class", "attributes", "references", "contents"} with keys sorted; references are the
 * target's EMF path fragment ("/" for the root, "//@layers.0/@bindings.1" below it) so that the
 * three tools can be compared; "defaults" lists attributes that are unset but have a non-null
 * default (EMF does not keep an explicitly written default value as "set").
 */
public final class EmfCheck {
    private static int problems = 0;

    private EmfCheck() {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            usage();
        }
        try {
            switch (args[0]) {
                case "ecore":
                    checkEcore(List.of(args).subList(1, args.length));
                    break;
                case "xmi":
                    if (args.length < 3) {
                        usage();
                    }
                    checkXmi(List.of(args).subList(1, args.length - 1), args[args.length - 1]);
                    break;
                default:
                    usage();
            }
        } catch (RuntimeException e) {
            problem("exception: " + e);
            Throwable c = e.getCause();
            while (c != null) {
                problem("  caused by: " + c);
                c = c.getCause();
            }
        }
        System.exit(problems == 0 ? 0 : 1);
    }

    private static void usage() {
        System.err.println("usage: EmfCheck ecore FILE.ecore... | EmfCheck xmi FILE.ecore... INSTANCE.xmi");
        System.exit(2);
    }

    private static void problem(String message) {
        problems++;
        System.err.println("PROBLEM " + message);
    }

    private static ResourceSet newResourceSet() {
        EcorePackage.eINSTANCE.eClass();
        ResourceSet rs = new ResourceSetImpl();
        rs.getResourceFactoryRegistry().getExtensionToFactoryMap().put("ecore", new EcoreResourceFactoryImpl());
        rs.getResourceFactoryRegistry().getExtensionToFactoryMap().put("*", new XMIResourceFactoryImpl());
        return rs;
    }

    private static URI fileUri(String path) {
        return URI.createFileURI(new File(path).getAbsolutePath());
    }

    private static void reportLoadDiagnostics(Resource r, String label) {
        for (Resource.Diagnostic d : r.getErrors()) {
            problem(label + ": load error: " + d.getMessage() + " (line " + d.getLine() + ", column " + d.getColumn() + ")");
        }
        for (Resource.Diagnostic d : r.getWarnings()) {
            problem(label + ": load warning: " + d.getMessage() + " (line " + d.getLine() + ", column " + d.getColumn() + ")");
        }
    }

    /** Loads every .ecore into one ResourceSet, registers the packages by nsURI, resolves all proxies. */
    private static List<EPackage> loadPackages(ResourceSet rs, List<String> files) {
        List<EPackage> packages = new ArrayList<>();
        List<Resource> resources = new ArrayList<>();
        for (String f : files) {
            Resource r;
            try {
                r = rs.getResource(fileUri(f), true);
            } catch (RuntimeException e) {
                problem(f + ": cannot load: " + e.getMessage());
                Resource partial = rs.getResource(fileUri(f), false);
                if (partial != null) {
                    reportLoadDiagnostics(partial, f);
                }
                continue;
            }
            resources.add(r);
            reportLoadDiagnostics(r, f);
            if (r.getContents().isEmpty()) {
                problem(f + ": no content");
            }
            for (EObject o : r.getContents()) {
                if (o instanceof EPackage) {
                    EPackage p = (EPackage) o;
                    packages.add(p);
                    if (p.getNsURI() != null) {
                        rs.getPackageRegistry().put(p.getNsURI(), p);
                    }
                } else {
                    problem(f + ": root is a " + o.eClass().getName() + ", not an EPackage");
                }
            }
        }
        EcoreUtil.resolveAll(rs);
        Map<EObject, java.util.Collection<EStructuralFeature.Setting>> unresolved =
            EcoreUtil.UnresolvedProxyCrossReferencer.find(rs);
        for (Map.Entry<EObject, java.util.Collection<EStructuralFeature.Setting>> e : unresolved.entrySet()) {
            for (EStructuralFeature.Setting s : e.getValue()) {
                problem("unresolved proxy " + EcoreUtil.getURI(e.getKey()) + " in " + describe(s.getEObject())
                    + "." + s.getEStructuralFeature().getName());
            }
        }
        return packages;
    }

    private static String describe(EObject o) {
        if (o instanceof EClassifier) {
            return ((EClassifier) o).getName();
        }
        if (o instanceof EStructuralFeature) {
            EStructuralFeature f = (EStructuralFeature) o;
            return f.getEContainingClass().getName() + "." + f.getName();
        }
        return String.valueOf(EcoreUtil.getURI(o));
    }

    private static void checkEcore(List<String> files) {
        ResourceSet rs = newResourceSet();
        List<EPackage> packages = loadPackages(rs, files);
        for (EPackage p : packages) {
            Diagnostic d = Diagnostician.INSTANCE.validate(p);
            int classes = 0;
            int enums = 0;
            int datatypes = 0;
            int features = 0;
            for (EClassifier c : p.getEClassifiers()) {
                if (c instanceof EClass) {
                    classes++;
                    features += ((EClass) c).getEStructuralFeatures().size();
                } else if (c instanceof EEnum) {
                    enums++;
                } else {
                    datatypes++;
                }
            }
            for (EClassifier c : p.getEClassifiers()) {
                if (c instanceof EDataType && !(c instanceof EEnum) && c.getInstanceClassName() != null
                    && c.getInstanceClass() == null) {
                    // Not a Diagnostician error, but EFactory.createFromString returns null for such a
                    // datatype, so XMI loading silently drops every value of it.
                    System.out.println("NOTE " + p.getName() + "::" + c.getName() + " instanceClassName="
                        + c.getInstanceClassName() + " is not on this classpath: XMI values of this type load as null");
                }
            }
            if (d.getSeverity() == Diagnostic.OK) {
                System.out.println("OK " + p.getName() + " " + p.getNsURI() + " classes=" + classes + " enums=" + enums
                    + " datatypes=" + datatypes + " features=" + features);
            } else {
                problem("Diagnostician on " + p.getName() + " " + p.getNsURI() + ": " + severity(d.getSeverity()));
                printDiagnostic(d, "  ");
            }
        }
    }

    private static String severity(int s) {
        switch (s) {
            case Diagnostic.OK: return "OK";
            case Diagnostic.INFO: return "INFO";
            case Diagnostic.WARNING: return "WARNING";
            case Diagnostic.ERROR: return "ERROR";
            case Diagnostic.CANCEL: return "CANCEL";
            default: return String.valueOf(s);
        }
    }

    private static void printDiagnostic(Diagnostic d, String indent) {
        for (Diagnostic c : d.getChildren()) {
            StringBuilder where = new StringBuilder();
            for (Object o : c.getData()) {
                if (o instanceof EObject) {
                    where.append(where.length() == 0 ? " [at " : ", ").append(describe((EObject) o));
                }
            }
            if (where.length() > 0) {
                where.append("]");
            }
            System.err.println(indent + severity(c.getSeverity()) + ": " + c.getMessage() + where);
            printDiagnostic(c, indent + "  ");
        }
    }

    private static void checkXmi(List<String> ecores, String instance) {
        ResourceSet rs = newResourceSet();
        loadPackages(rs, ecores);
        if (problems > 0) {
            return;
        }
        Resource r;
        try {
            r = rs.getResource(fileUri(instance), true);
        } catch (RuntimeException e) {
            problem(instance + ": cannot load: " + e.getMessage());
            Resource partial = rs.getResource(fileUri(instance), false);
            if (partial != null) {
                reportLoadDiagnostics(partial, instance);
            }
            return;
        }
        reportLoadDiagnostics(r, instance);
        EcoreUtil.resolveAll(r);
        for (EObject root : r.getContents()) {
            Diagnostic d = Diagnostician.INSTANCE.validate(root);
            if (d.getSeverity() >= Diagnostic.WARNING) {
                problem("Diagnostician on instance root " + root.eClass().getName() + ": " + severity(d.getSeverity()));
                printDiagnostic(d, "  ");
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("[");
        EList<EObject> roots = r.getContents();
        for (int i = 0; i < roots.size(); i++) {
            out.append(i == 0 ? "\n" : ",\n");
            dump(roots.get(i), out, 1);
        }
        out.append("\n]");
        System.out.println(out);
    }

    /** EMF path fragment, computed the same way in rgen_check.rb and interop.test.ts. */
    private static String path(EObject o) {
        List<String> segments = new ArrayList<>();
        EObject cur = o;
        while (cur.eContainer() != null) {
            EReference f = cur.eContainmentFeature();
            String seg = "@" + f.getName();
            if (f.isMany()) {
                seg += "." + ((List<?>) cur.eContainer().eGet(f)).indexOf(cur);
            }
            segments.add(0, seg);
            cur = cur.eContainer();
        }
        int rootIndex = cur.eResource() == null ? 0 : cur.eResource().getContents().indexOf(cur);
        segments.add(0, rootIndex == 0 ? "" : String.valueOf(rootIndex));
        return "/" + String.join("/", segments);
    }

    private static String refTarget(EObject from, EObject target) {
        if (target.eIsProxy()) {
            problem("unresolved reference from " + path(from) + " to " + EcoreUtil.getURI(target));
            return "UNRESOLVED " + EcoreUtil.getURI(target);
        }
        if (target.eResource() != from.eResource()) {
            return String.valueOf(EcoreUtil.getURI(target));
        }
        return path(target);
    }

    private static void indent(StringBuilder out, int level) {
        for (int i = 0; i < level; i++) {
            out.append("  ");
        }
    }

    private static void dump(EObject o, StringBuilder out, int level) {
        EClass c = o.eClass();
        TreeMap<String, Object> attributes = new TreeMap<>();
        TreeMap<String, Object> defaults = new TreeMap<>();
        for (EAttribute a : c.getEAllAttributes()) {
            if (o.eIsSet(a)) {
                Object v = o.eGet(a);
                if (a.isMany()) {
                    List<Object> values = new ArrayList<>();
                    for (Object e : (List<?>) v) {
                        values.add(value(a.getEAttributeType(), e));
                    }
                    attributes.put(a.getName(), values);
                } else {
                    attributes.put(a.getName(), value(a.getEAttributeType(), v));
                }
            } else if (!a.isMany() && a.getDefaultValue() != null) {
                defaults.put(a.getName(), value(a.getEAttributeType(), a.getDefaultValue()));
            }
        }
        TreeMap<String, Object> references = new TreeMap<>();
        TreeMap<String, Object> contents = new TreeMap<>();
        for (EReference r : c.getEAllReferences()) {
            if (!o.eIsSet(r) || r.isContainer()) {
                continue;
            }
            Object v = o.eGet(r, false);
            if (r.isContainment()) {
                contents.put(r.getName(), v);
            } else if (r.getEOpposite() != null && r.getEOpposite().isContainment()) {
                continue;
            } else if (r.isMany()) {
                List<Object> targets = new ArrayList<>();
                for (Object t : (List<?>) v) {
                    targets.add(refTarget(o, (EObject) t));
                }
                references.put(r.getName(), targets);
            } else {
                references.put(r.getName(), refTarget(o, (EObject) v));
            }
        }
        indent(out, level);
        out.append("{\n");
        indent(out, level + 1);
        out.append("\"class\": ").append(json(c.getName()));
        out.append(",\n");
        indent(out, level + 1);
        out.append("\"attributes\": ").append(json(attributes));
        if (!defaults.isEmpty()) {
            out.append(",\n");
            indent(out, level + 1);
            out.append("\"defaults\": ").append(json(defaults));
        }
        out.append(",\n");
        indent(out, level + 1);
        out.append("\"references\": ").append(json(references));
        out.append(",\n");
        indent(out, level + 1);
        out.append("\"contents\": {");
        boolean firstFeature = true;
        for (Map.Entry<String, Object> e : contents.entrySet()) {
            out.append(firstFeature ? "\n" : ",\n");
            firstFeature = false;
            indent(out, level + 2);
            out.append(json(e.getKey())).append(": ");
            if (e.getValue() instanceof List) {
                List<?> children = (List<?>) e.getValue();
                out.append("[");
                for (int i = 0; i < children.size(); i++) {
                    out.append(i == 0 ? "\n" : ",\n");
                    dump((EObject) children.get(i), out, level + 3);
                }
                out.append("\n");
                indent(out, level + 2);
                out.append("]");
            } else {
                out.append("\n");
                dump((EObject) e.getValue(), out, level + 3);
            }
        }
        if (!firstFeature) {
            out.append("\n");
            indent(out, level + 1);
        }
        out.append("}\n");
        indent(out, level);
        out.append("}");
    }

    /** A JSON-able Java value for an attribute value as EMF holds it. */
    private static Object value(EDataType type, Object v) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Number) {
            return v;
        }
        if (v instanceof Enumerator) {
            return ((Enumerator) v).getLiteral();
        }
        return EcoreUtil.convertToString(type, v);
    }

    private static String json(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return jsonString((String) v);
        }
        if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short
            || v instanceof Byte || v instanceof java.math.BigInteger) {
            return v.toString();
        }
        if (v instanceof Number) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return jsonString(v.toString());
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.valueOf((long) d);
            }
            return String.valueOf(d);
        }
        if (v instanceof Map) {
            StringBuilder b = new StringBuilder("{");
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!first) {
                    b.append(", ");
                }
                first = false;
                b.append(jsonString(String.valueOf(e.getKey()))).append(": ").append(json(e.getValue()));
            }
            return b.append("}").toString();
        }
        if (v instanceof List) {
            StringBuilder b = new StringBuilder("[");
            boolean first = true;
            for (Object e : (List<?>) v) {
                if (!first) {
                    b.append(", ");
                }
                first = false;
                b.append(json(e));
            }
            return b.append("]").toString();
        }
        return jsonString(v.toString());
    }

    private static String jsonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
            }
        }
        return b.append("\"").toString();
    }
}
