import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Finds the Puppet code examples a module documents: fenced and indented code blocks of its
 * README/REFERENCE (Markdown), its examples/ and tests/ manifests, and the `@example` (puppet-strings)
 * and `== Examples` / `Sample Usage` (older rdoc-style) sections of its manifests' header comments.
 */
export interface Snippet {
    /** Where it came from, relative to the documentation root it was found under. */
    readonly source: string;
    readonly line: number;
    readonly code: string;
    /** A YAML example of Hiera data for classes (`mod::class::param: value`): `code` then includes those classes. */
    readonly hiera?: string;
}

/** Reads a file, gunzipping `*.gz`. */
export function readDoc(path: string): string {
    const raw = readFileSync(path);
    return (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

function walk(dir: string, out: string[] = []): string[] {
    if (!existsSync(dir)) return out;
    for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p, out);
        else out.push(p);
    }
    return out;
}

const MARKDOWN = /\.(md|markdown)(\.gz)?$/i;
const MANIFEST = /\.pp(\.gz)?$/;

/** Every snippet under one documentation root (a Debian doc dir, a module dir, fetched upstream docs). */
export function snippetsUnder(root: string, opts: { manifestComments: boolean; markdown: boolean; exampleFiles: boolean }): Snippet[] {
    const out: Snippet[] = [];
    for (const file of walk(root)) {
        const rel = relative(root, file);
        if (rel.startsWith('spec/') || rel.includes('/spec/') || rel.startsWith('.')) continue;
        if (opts.markdown && MARKDOWN.test(file)) {
            for (const s of markdownSnippets(readDoc(file))) out.push({ source: rel, ...s });
        } else if (MANIFEST.test(file)) {
            const isExample = /(^|\/)(examples|tests)\//.test(rel);
            if (isExample && opts.exampleFiles) out.push({ source: rel, line: 1, code: readDoc(file) });
            else if (!isExample && opts.manifestComments && rel.startsWith('manifests/')) {
                for (const s of commentSnippets(readDoc(file))) out.push({ source: rel, ...s });
            }
        }
    }
    return out;
}

/** Fenced blocks tagged puppet/pp, untagged fenced and indented blocks that look like Puppet. */
export function markdownSnippets(text: string): { line: number; code: string; hiera?: string }[] {
    const lines = text.split('\n');
    const out: { line: number; code: string; hiera?: string }[] = [];
    let i = 0;
    while (i < lines.length) {
        const fence = /^(\s*)(```+|~~~+)\s*([\w+-]*)/.exec(lines[i]);
        if (fence) {
            const indent = fence[1].length;
            const lang = fence[3].toLowerCase();
            const start = i + 1;
            let j = start;
            while (j < lines.length && !lines[j].trim().startsWith(fence[2].slice(0, 3))) j++;
            const body = lines.slice(start, j).map(l => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n');
            if (lang === 'puppet' || lang === 'pp' || (lang === '' && looksLikePuppet(body))) out.push({ line: start + 1, code: body });
            else if (lang === 'yaml' || lang === 'yml') {
                const classes = hieraClasses(body);
                if (classes.length > 0) out.push({ line: start + 1, code: classes.map(c => `include ${c}`).join('\n'), hiera: body });
            }
            i = j + 1;
            continue;
        }
        // An indented block: 4 spaces or a tab after a blank line, outside any list continuation.
        if (/^( {4}|\t)/.test(lines[i]) && (i === 0 || lines[i - 1].trim() === '')) {
            const start = i;
            let j = i;
            while (j < lines.length && (/^( {4}|\t)/.test(lines[j]) || (lines[j].trim() === '' && j + 1 < lines.length && /^( {4}|\t)/.test(lines[j + 1])))) j++;
            const body = lines.slice(start, j).map(l => l.replace(/^( {4}|\t)/, '')).join('\n');
            if (looksLikePuppet(body)) out.push({ line: start + 1, code: body });
            i = j;
            continue;
        }
        i++;
    }
    return out;
}

/** Puppet code rather than shell, YAML, Ruby or prose. */
export function looksLikePuppet(code: string): boolean {
    const t = code.trim();
    if (t === '') return false;
    if (/^(\$ |# |sudo |puppet |gem |bundle |apt-get |yum |---\s*$|<\?xml|<)/m.test(t.split('\n')[0])) return false;
    if (/^\s*(def |require ['"]|end$)/m.test(t) && !/=>/.test(t)) return false;
    if (/^[\w:]+:\s/m.test(t) && !/[{}]/.test(t)) return false;
    return /(^|\n)\s*(include|contain|require)\s+['"]?[\w:]+/.test(t)
        || /(^|\n)\s*(class|define|node)\s+[\w:'"{]/.test(t)
        || /[\w:]+\s*\{\s*['"$\w[]/.test(t) && /=>|:\s*$|;/m.test(t)
        || /(^|\n)\s*[A-Z][\w:]*\s*(\[|<<?\|)/.test(t);
}

/**
 * Header-comment examples of a manifest: `@example` blocks (puppet-strings: the code is the
 * comment lines indented past the tag, up to the next tag or the end of the comment) and rdoc
 * sections headed `Examples`, `Example`, `Sample Usage` or `Usage` (the indented lines that follow).
 */
export function commentSnippets(text: string): { line: number; code: string }[] {
    const lines = text.split('\n');
    const out: { line: number; code: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
        const m = /^(\s*#+)(\s*)@example\b/.exec(lines[i]);
        const rd = /^\s*#+\s*(?:=+\s*)?(?:Examples?|Sample [Uu]sage|Usage)\s*:?\s*=*\s*$/.exec(lines[i]);
        if (!m && !rd) continue;
        const body: string[] = [];
        let j = i + 1;
        const tagIndent = m ? m[2].length : -1;
        for (; j < lines.length; j++) {
            const c = /^\s*#+( ?)(.*)$/.exec(lines[j]);
            if (!c) break;
            const content = lines[j].replace(/^\s*#+/, '');
            if (m) {
                const ind = content.length - content.trimStart().length;
                if (content.trim() !== '' && ind <= tagIndent && /^\s*@/.test(content)) break;
                if (content.trim() !== '' && ind <= tagIndent) break;
            } else if (/^\s*(=+|@)/.test(content) || /^\s*\[\w/.test(content)) {
                break;
            }
            body.push(content);
        }
        const code = dedent(body).trim();
        if (code !== '' && (m ? true : looksLikePuppet(code))) out.push({ line: i + 1, code });
        i = j - 1;
    }
    return out;
}

function dedent(lines: string[]): string {
    const widths = lines.filter(l => l.trim() !== '').map(l => l.length - l.trimStart().length);
    const w = widths.length ? Math.min(...widths) : 0;
    return lines.map(l => l.slice(Math.min(w, l.length))).join('\n');
}

/** A short file-name-safe label for a snippet's origin. */
export function sourceSlug(s: Snippet): string {
    const base = basename(s.source).replace(/\.(gz)$/, '').replace(/\.(pp|md|markdown)$/i, '').replace(/[^A-Za-z0-9]+/g, '_');
    return `${base}-L${s.line}`;
}

/** The classes a YAML block gives parameters to (top-level keys `mod::class::param`), in order. */
function hieraClasses(yaml: string): string[] {
    const out: string[] = [];
    for (const m of yaml.matchAll(/^['"]?([a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)+)['"]?\s*:/gm)) {
        const cls = m[1].split('::').slice(0, -1).join('::');
        if (!out.includes(cls)) out.push(cls);
    }
    return out;
}
