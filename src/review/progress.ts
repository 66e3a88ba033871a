/** A one-line progress bar on a terminal's stderr; silent when stderr is not a terminal (CI logs, pipes). */
export interface Progress {
    update(done: number): void;
    finish(): void;
}

const WIDTH = 30;

export function progressBar(total: number, label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
    if (!stream.isTTY || total === 0) return { update() { /* not a terminal */ }, finish() { /* not a terminal */ } };
    const started = Date.now();
    const draw = (done: number): void => {
        const filled = Math.round((done / total) * WIDTH);
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done}/${total} ${seconds}s`);
    };
    draw(0);
    return {
        update: draw,
        finish() { stream.write('\r\x1b[2K'); }
    };
}
