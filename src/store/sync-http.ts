import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** What one HTTP exchange gave: the status and body, or why no answer came. */
export type HttpAnswer = { readonly status: number; readonly text: string } | { readonly error: string };

/**
 * The HTTP side runs on one long-lived worker thread (fetch is asynchronous); the caller, a
 * synchronous compile, blocks on a shared flag until the worker has posted the answer. Before
 * this, every call started a Node process (about 100 ms of CPU each), which made the PuppetDB
 * store ten times slower than PuppetDB's own query API.
 */
const WORKER = `
const { workerData } = require('node:worker_threads');
const { port, flag } = workerData;
port.on('message', async request => {
    let answer;
    try {
        const r = await fetch(request.url, { method: request.method, headers: { 'content-type': 'application/json' }, body: request.body, signal: AbortSignal.timeout(request.timeoutMs) });
        answer = { status: r.status, text: await r.text() };
    } catch (e) {
        answer = { error: String((e && e.cause && e.cause.message) || (e && e.message) || e) };
    }
    port.postMessage(answer);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
});
`;

// The worker is kept referenced: once collected, its thread may go with it.
interface Channel { readonly worker: Worker; readonly port: MessagePort; readonly flag: Int32Array }
let channel: Channel | undefined;

function open(): Channel {
    if (channel) return channel;
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, flag }, transferList: [port2] });
    // Neither end keeps the process alive: a command ends when its own work is done.
    worker.unref();
    port1.unref();
    channel = { worker, port: port1, flag };
    return channel;
}

/** One HTTP request, answered synchronously; a request with no answer within timeoutMs is an error. */
export function httpSync(url: string, method: 'GET' | 'POST', body?: unknown, timeoutMs = 120_000): HttpAnswer {
    const c = open();
    Atomics.store(c.flag, 0, 0);
    c.port.postMessage({ url, method, timeoutMs, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    // The worker's own timeout answers first; this margin only guards against a worker that died.
    if (Atomics.wait(c.flag, 0, 0, timeoutMs + 5_000) === 'timed-out') return { error: `no answer within ${timeoutMs / 1000} s` };
    const received = receiveMessageOnPort(c.port);
    return received ? received.message as HttpAnswer : { error: 'the HTTP worker gave no answer' };
}
