import { DevError } from '../errors.js';
import { rubyClassName } from '../inspect.js';
import type { TypeSystem } from '../type-system.js';
import type { TransportDefinition } from './definition.js';
import { isPlainObject, validateAttributes, type Registration } from './register-type.js';

/**
 * Validates a `register_transport` schema with the gem's checks and messages (features.md §15.1).
 * Unlike types, a missing `desc` is an error and there is no reserved-name or ensure check.
 */
export function validateTransportDefinition(input: unknown, ts: TypeSystem): Registration<TransportDefinition> {
    if (!isPlainObject(input)) throw new DevError(`requires a hash as schema, not \`${rubyClassName(input)}\``);
    if (!('name' in input)) throw new DevError('requires a `:name`');
    if (!('desc' in input)) throw new DevError('requires `:desc`');
    if (!('connection_info' in input)) throw new DevError('requires `:connection_info`');
    const info = input.connection_info;
    if (!isPlainObject(info)) throw new DevError(`\`:connection_info\` must be a hash, not \`${rubyClassName(info)}\``);
    const order = input.connection_info_order;
    if (order !== undefined && !Array.isArray(order)) throw new DevError(`\`:connection_info_order\` must be an array, not \`${rubyClassName(order)}\``);
    const name = String(input.name);
    const warnings: string[] = [];
    const connectionInfo = validateAttributes(name, info, ts, warnings, 'transport');
    return {
        definition: {
            name,
            desc: String(input.desc),
            connectionInfo,
            connectionInfoOrder: order === undefined ? connectionInfo.map(a => a.name) : order.map(String)
        },
        warnings
    };
}
