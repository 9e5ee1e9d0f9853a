import type { Counter, Histogram, Metric, Registry } from 'prom-client';
import type * as PromClient from 'prom-client';
import { ServiceError, importOptional, MissingOptionalPackageError } from '../../core/index.js';
import type { Telemetry } from '../../core/index.js';
import type { Transport } from '../edge/connection-gate.js';
import { Transports } from '../edge/connection-gate.js';
import { RequestSeries } from './request-series.js';

/** Buckets of request latency, seconds: cache hits to slow streams. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets of vendor calls and reply timings, seconds. */
const VENDOR_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 21, 34, 60];

/**
 * prom-client, when installed. It is an optional peer dependency (README, Optional packages):
 * without it the server runs with metrics off and `/metrics` answers 503 saying what to install.
 */
const prom: typeof PromClient | MissingOptionalPackageError = await importOptional<typeof PromClient>('prom-client', 'metrics').catch(
  (error: unknown) => {
    if (error instanceof MissingOptionalPackageError) return error;
    throw error;
  },
);

/** Where the gauges read their value when scraped. */
export interface MetricSources {
  /** Webhook deliveries waiting to be sent (`store.webhookDeliveries.countQueued`). */
  webhookQueue(): Promise<number>;
  /** Open long-lived connections by transport. */
  connections(): Record<Transport, number>;
}

/**
 * The server's Prometheus metrics in a registry of their own (never prom-client's global one, so
 * several servers in one process, as in tests, do not collide). It is the core's {@link Telemetry}:
 * the core reports vendor calls, reply timings and webhook attempts here; the HTTP layer reports
 * requests through {@link request}; gauges read their sources when `/metrics` is scraped.
 */
export class Metrics implements Telemetry {
  /** Undefined when prom-client is not installed: then every observation is dropped. */
  readonly registry: Registry | undefined;
  /** `http_requests_total` and `http_request_duration_seconds`: the one per-request observation. */
  readonly #requests = new RequestSeries(HTTP_BUCKETS);
  readonly #vendorSeconds?: Histogram<'kind' | 'provider' | 'outcome'>;
  readonly #vendorErrors?: Counter<'kind' | 'provider'>;
  readonly #firstToken?: Histogram<'provider'>;
  readonly #firstAudio?: Histogram;
  readonly #webhookAttempts?: Counter<'result'>;
  #sources: MetricSources | undefined;

  constructor() {
    if (prom instanceof Error) return;
    const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = prom;
    this.registry = new Registry();
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    // Formatted by the registry like its own metrics (prom-client reads any object with `get`).
    this.registry.registerMetric(this.#requests.counter('http_requests_total', 'HTTP requests answered, by route template and status') as unknown as Metric);
    this.registry.registerMetric(
      this.#requests.histogram(
        'http_request_duration_seconds',
        'Time from request to the end of the response (of the whole stream for SSE), by route template and status',
      ) as unknown as Metric,
    );
    this.#vendorSeconds = new Histogram({
      name: 'vendor_call_duration_seconds',
      help: 'AI completions (whole stream) and speech syntheses (one clip), by kind (ai, speech), provider and outcome',
      labelNames: ['kind', 'provider', 'outcome'],
      buckets: VENDOR_BUCKETS,
      registers,
    });
    this.#vendorErrors = new Counter({ name: 'vendor_errors_total', help: 'AI and speech vendor calls that failed, by kind and provider', labelNames: ['kind', 'provider'], registers });
    this.#firstToken = new Histogram({
      name: 'ai_time_to_first_token_seconds',
      help: 'Time from asking an AI provider to its first text, by provider',
      labelNames: ['provider'],
      buckets: VENDOR_BUCKETS,
      registers,
    });
    this.#firstAudio = new Histogram({
      name: 'reply_time_to_first_audio_seconds',
      help: 'Time from the start of a conversation reply to its first stored audio clip',
      buckets: VENDOR_BUCKETS,
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by result: succeeded, retrying (failed, another attempt scheduled), failed (no attempt left, or 410 Gone)',
      labelNames: ['result'],
      registers,
    });
    const sources = () => this.#sources;
    new Gauge({
      name: 'webhook_queue_depth',
      help: 'Webhook deliveries waiting to be sent (pending and not yet relayed), across all nodes sharing the database',
      registers,
      async collect() {
        const source = sources();
        if (source) this.set(await source.webhookQueue());
      },
    });
    new Gauge({
      name: 'open_connections',
      help: 'Long-lived connections this process holds, by transport (sse, socket.io, websocket)',
      labelNames: ['transport'],
      registers,
      collect() {
        const counts = sources()?.connections();
        for (const transport of Transports) this.set({ transport }, counts?.[transport] ?? 0);
      },
    });
  }

  /** Connects the gauges to what they measure (the host knows them once it is built). */
  watch(sources: MetricSources): void {
    this.#sources = sources;
  }

  request(method: string, route: string, status: number, seconds: number): void {
    if (this.registry !== undefined) this.#requests.observe(method, route, status, seconds);
  }

  vendorCall({ kind, provider, seconds, outcome }: Parameters<Telemetry['vendorCall']>[0]): void {
    this.#vendorSeconds?.observe({ kind, provider, outcome }, seconds);
    if (outcome === 'error') this.#vendorErrors?.inc({ kind, provider });
  }

  firstToken(provider: string, seconds: number): void {
    this.#firstToken?.observe({ provider }, seconds);
  }

  firstAudio(seconds: number): void {
    this.#firstAudio?.observe(seconds);
  }

  webhookAttempt(result: 'succeeded' | 'retrying' | 'failed'): void {
    this.#webhookAttempts?.inc({ result });
  }

  /** The exposition text and its content type. */
  async expose(): Promise<{ contentType: string; text: string }> {
    if (this.registry === undefined) throw new ServiceError('unavailable', 'Metrics are off because the optional package prom-client is not installed: npm install prom-client');
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
