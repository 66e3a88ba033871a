/** The part of yaml-js (a port of PyYAML, without type declarations) that psych-syntax.ts uses. */
declare module 'yaml-js' {
    interface Loader {
        check_token(): boolean;
        get_token: () => unknown;
        check_event(): boolean;
        get_event(): { constructor: { name: string } } | undefined;
        /** Tokens scanned ahead of the parser. */
        tokens?: unknown[];
    }
    const yamlJs: {
        loader: { Loader: new (text: string) => Loader };
        tokens: { ScalarToken: new (value: string, plain: boolean, start: unknown, end: unknown, style?: string) => unknown };
    };
    export default yamlJs;
}
