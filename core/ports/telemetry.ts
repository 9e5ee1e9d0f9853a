/**
 * What the core tells a host about its work, for metrics (the server turns these into Prometheus
 * series; an embedding app may forward them anywhere). Every method is called synchronously on
 * the path it measures and must return at once without throwing. Durations are in seconds.
 */
export interface Telemetry {
  /** One call to an AI vendor (a whole streamed completion) or a speech engine (one clip) ended. */
  vendorCall(call: { kind: 'ai' | 'speech'; provider: string; seconds: number; outcome: 'ok' | 'error' }): void;
  /** The first text of a completion arrived, `seconds` after the provider was asked. */
  firstToken(provider: string, seconds: number): void;
  /** The first audio clip of a conversation reply is stored, `seconds` after the reply started. */
  firstAudio(seconds: number): void;
  /** One webhook delivery attempt ended. `retrying`: it failed and another attempt is scheduled. */
  webhookAttempt(result: 'succeeded' | 'retrying' | 'failed'): void;
}

/** Observes nothing: the default when the host passes no telemetry. */
export const noTelemetry: Telemetry = Object.freeze({
  vendorCall() {},
  firstToken() {},
  firstAudio() {},
  webhookAttempt() {},
});
