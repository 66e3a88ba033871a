import type { PuppetValue } from '../../values/index.js';
import type { Where } from '../errors.js';

/** `break` in an iteration (`where` is the call, for the error when nothing catches it). */
export class BreakSignal {
    constructor(readonly where?: Where) {}
}
/** `next` in a lambda or iteration: the lambda's value. */
export class NextSignal {
    constructor(readonly value: PuppetValue, readonly where?: Where) {}
}
/** `return` from a function. */
export class ReturnSignal {
    constructor(readonly value: PuppetValue, readonly where?: Where) {}
}
