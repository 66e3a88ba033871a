/**
 * The error classes the Resource API and Puppet's type system raise. `rubyClass` keeps the name
 * of the Ruby exception so tests and reports can say exactly what Puppet would have said.
 */
export class PuppetError extends Error {
    readonly rubyClass: string = 'Puppet::Error';
    constructor(message: string) {
        super(message);
        this.name = 'PuppetError';
    }
}

/** A programming error in a type or provider (Puppet::DevError). */
export class DevError extends PuppetError {
    override readonly rubyClass: string = 'Puppet::DevError';
    constructor(message: string) {
        super(message);
        this.name = 'DevError';
    }
}

/** An error about one resource's values or state (Puppet::ResourceError). */
export class ResourceError extends PuppetError {
    override readonly rubyClass: string = 'Puppet::ResourceError';
    constructor(message: string) {
        super(message);
        this.name = 'ResourceError';
    }
}

/**
 * Raised by a sync that did not act (a system tool not run under --root): the change is then
 * reported as not applied (noop), never as done.
 */
export class NotApplied extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'NotApplied';
    }
}

/** Ruby's ArgumentError: what validate blocks raise for a bad value. */
export class ArgumentError extends Error {
    readonly rubyClass: string = 'ArgumentError';
    constructor(message: string) {
        super(message);
        this.name = 'ArgumentError';
    }
}

/** True for errors Puppet treats as "Puppet::Error or ArgumentError" when wrapping value failures. */
export function isValueError(e: unknown): e is Error {
    return e instanceof PuppetError || e instanceof ArgumentError;
}

export function errorMessage(e: unknown): string {
    return e instanceof Error ? e.message : String(e);
}
