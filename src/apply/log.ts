/** Puppet's log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'err' | 'alert' | 'emerg' | 'crit';

/** One log message; `source` is Puppet's log source ("/Stage[main]/Main/File[/x]/mode", "Puppet"). */
export interface LogMessage {
    readonly level: LogLevel;
    readonly message: string;
    readonly source?: string;
    readonly time: Date;
}

export type LogSink = (m: LogMessage) => void;

const LABEL: Record<LogLevel, string> = {
    debug: 'Debug', info: 'Info', notice: 'Notice', warning: 'Warning', err: 'Error', alert: 'Alert', emerg: 'Emergency', crit: 'Critical'
};

/** The line `puppet apply` prints: `Notice: /Stage[main]/Main/Notify[x]/message: defined ...`. */
export function formatLogLine(m: LogMessage): string {
    const src = m.source && m.source !== 'Puppet' ? `${m.source}: ` : '';
    return `${LABEL[m.level]}: ${src}${m.message}`;
}

/** The line as Puppet's console prints it with Ruby's `puts`: a message ending in a newline gets no second one. */
export function printedLogLine(m: LogMessage): string {
    const line = formatLogLine(m);
    return line.endsWith('\n') ? line : `${line}\n`;
}

export const LEVEL_ORDER: readonly LogLevel[] = ['debug', 'info', 'notice', 'warning', 'err', 'alert', 'emerg', 'crit'];
