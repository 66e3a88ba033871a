/**
 * ERB templates as Puppet evaluates them (`template()`, `inline_template()`): Ruby's ERB with
 * trim mode `-`, and a Ruby subset large enough for the templates found in real modules.
 */
export { parseErb, renderErb, type ErbTemplate } from './render.js';
export { HostCallError, type ErbHost } from './host.js';
export { RubyError, Exceptions } from '../ruby/index.js';
export { describe as describeRuby } from '../ruby/index.js';
