import { newtype, type ClassicType } from '../dsl/type.js';
import { ABSENT, toS } from '../dsl/values.js';
import type { LogLevel } from '../log.js';

/**
 * `notify`: its `message` property is never in sync; syncing it logs the message (through the
 * resource's path with `withpath`), then Puppet logs "defined 'message' as '...'".
 */
export function notifyType(): ClassicType {
    return newtype('notify', t => {
        t.desc('Sends an arbitrary message, specified as a string, to the agent run-time log.');
        t.newproperty('message', p => {
            p.desc('The message to be sent to the log. Note that the value specified must be a string.');
            p.defaultto(r => r.title);
            p.retrieve(() => ABSENT);
            p.insync(() => false);
            p.sync(function () {
                const r = this.resource;
                const text = r.isSensitive('message') ? 'Sensitive [value redacted]' : toS(this.should);
                const level = toS(r.metaparams.get('loglevel') ?? 'notice') as LogLevel;
                const source = r.is('withpath') ? r.path : undefined;
                r.env?.log({ level, message: text, time: new Date(), ...(source ? { source } : {}) });
            });
        });
        t.newparam('name', { namevar: true }, p => p.desc('An arbitrary tag for your own reference; the name of the message.'));
        t.newparam('withpath', p => {
            p.desc('Whether to show the full object path.');
            p.newvalues(true, false);
            p.defaultto(false);
        });
    });
}
