/** The part of yaml-js (a port of PyYAML, without type declarations) that psych-syntax.ts uses. */
declare module 'yaml-js' {
    interface Loader {
        check_token(): boolean;
        get_token: () => unknown;
        check_event(): boolean;
        get_event(): object | undefined;
        /** Tokens scanned ahead of the parser. */
        tokens?: unknown[];
    }
    const yamlJs: {
        loader: { Loader: new (text: string) => Loader };
        tokens: Record<string, unknown> & { ScalarToken: new (value: string, plain: boolean, start: unknown, end: unknown, style?: string) => unknown };
        events: Record<string, unknown>;
    };
    export default yamlJs;
}
