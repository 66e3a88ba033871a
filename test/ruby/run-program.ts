import { Frame, Interpreter, inspect, ObjectClass, parseRuby, RObject, RubyError } from '../../src/ruby/index.js';

/** Runs a Ruby program in a fresh interpreter and gives what the recorders print: the last value's inspect, or the error. */
export function runRubyProgram(src: string): string {
    const it = new Interpreter({ self: new RObject(ObjectClass, 'main'), dynamic: () => undefined });
    try {
        return inspect(it.runBody(parseRuby(src), new Frame(null, it.topContext('program.rb'))));
    } catch (e) {
        if (e instanceof RubyError) return `${e.cls.name}: ${e.message} (line ${e.line})`;
        throw e;
    }
}
