import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { state } from 'lit/decorators.js';
import type uPlot from 'uplot';
import { Area } from './area.js';

/** One day of `GET /v1/usage/daily`. */
export interface UsageDay {
  date: string;
  ai_tokens: number;
  tts_characters: number;
  conversations: number;
}

/** `GET /v1/usage/daily?days=30` (docs/api.md, Usage). */
export interface DailyUsage {
  days: UsageDay[];
  total: { ai_tokens: number; tts_characters: number; conversations: number };
  limits: Record<string, number | null>;
  tier: string;
  /** The one mode reported, or null for test and live added together. */
  mode: 'live' | 'test' | null;
}

const SERIES = [
  { key: 'ai_tokens', label: 'AI tokens', color: ['#0b57d0', '#a8c7fa'] },
  { key: 'tts_characters', label: 'Speech characters', color: ['#b3261e', '#ffb4ab'] },
  { key: 'conversations', label: 'Conversations (right axis)', color: ['#146c2e', '#8fd19e'] },
] as const;

const number = (n: number | null | undefined) => (n === null || n === undefined ? 'no limit' : n.toLocaleString());
const limitLabel = (key: string) => key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Usage: per-day AI tokens, speech characters and conversations (chart and table), totals, tier limits. */
export class UsageArea extends Area {
  @state() private accessor _usage: DailyUsage | undefined;
  @state() private accessor _mode = '';
  #chart: uPlot | undefined;
  /** The chart library, loaded with this area's data (a chunk of its own). */
  #uPlot: typeof uPlot | undefined;
  #resize = new ResizeObserver(() => this.#drawChart());

  protected async load(): Promise<void> {
    await this.attempt(async () => {
      const [usage, library] = await Promise.all([this.client.request<DailyUsage>(`/usage/daily?days=30${this._mode ? `&mode=${this._mode}` : ''}`), import('uplot')]);
      this.#uPlot = library.default;
      this._usage = usage;
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize.disconnect();
    this.#chart?.destroy();
    this.#chart = undefined;
  }

  protected override updated(): void {
    const host = this.querySelector<HTMLElement>('.chart');
    if (host) this.#resize.observe(host);
    this.#drawChart();
  }

  #drawChart(): void {
    const host = this.querySelector<HTMLElement>('.chart');
    const usage = this._usage;
    this.#chart?.destroy();
    this.#chart = undefined;
    const UPlot = this.#uPlot;
    if (!host || !usage || !UPlot || usage.days.length === 0) return;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0;
    const axisColor = dark ? '#b4b4b4' : '#555555';
    const x = usage.days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const width = Math.max(280, host.clientWidth);
    this.#chart = new UPlot(
      {
        width,
        height: 260,
        legend: { show: false },
        // Tokens and characters share the left axis; conversations (tens, not thousands) the right.
        scales: { x: { time: true }, n: { auto: true }, c: { auto: true } },
        axes: [
          { stroke: axisColor, grid: { stroke: dark ? '#333' : '#e5e5e5' } },
          { scale: 'n', stroke: axisColor, grid: { stroke: dark ? '#333' : '#e5e5e5' }, size: 60 },
          { scale: 'c', side: 1, stroke: axisColor, grid: { show: false }, size: 40 },
        ],
        series: [{}, ...SERIES.map((s) => ({ label: s.label, scale: s.key === 'conversations' ? 'c' : 'n', stroke: s.color[dark], width: 2, points: { show: true } }))],
      },
      [x, ...SERIES.map((s) => usage.days.map((d) => d[s.key]))],
      host,
    );
  }

  override render(): TemplateResult {
    const usage = this._usage;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches ? 1 : 0;
    return html`<h2 tabindex="-1">Usage</h2>
      ${this.renderError()}
      <label class="inline">Mode
        <select @change=${(event: Event) => ((this._mode = (event.target as HTMLSelectElement).value), void this.load())}>
          <option value="">test and live</option><option value="test">test</option><option value="live">live</option>
        </select></label>
      ${usage
        ? html`<dl class="totals" data-totals>
              ${SERIES.map((s) => html`<div><dt>${s.label}, ${usage.days.length} days</dt><dd data-total=${s.key}>${number(usage.total[s.key])}</dd></div>`)}
            </dl>
            <h3>Per day</h3>
            <p class="hint">
              ${SERIES.map((s, i) => html`${i ? ' · ' : ''}<span style="color:var(--fg)"><span aria-hidden="true" style="display:inline-block;width:0.8em;height:0.8em;background:${s.color[dark]};border-radius:2px"></span> ${s.label}</span>`)}
            </p>
            <div class="chart" role="img" aria-label="Chart of AI tokens, speech characters and conversations per day; the same figures are in the table below"></div>
            <details>
              <summary>The figures as a table</summary>
              <div class="table-wrap" tabindex="0" role="region" aria-label="Usage per day table">
                <table data-usage-table>
                  <thead><tr><th scope="col">Day (UTC)</th>${SERIES.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
                  <tbody>
                    ${[...usage.days].reverse().map(
                      (d) => html`<tr data-day=${d.date}><th scope="row">${d.date}</th>${SERIES.map((s) => html`<td data-field=${s.key}>${d[s.key].toLocaleString()}</td>`)}</tr>`,
                    )}
                  </tbody>
                </table>
              </div>
            </details>
            <h3>Your tier's limits (${usage.tier})</h3>
            <dl class="totals" data-limits>
              ${Object.entries(usage.limits).map(([key, value]) => html`<div><dt>${limitLabel(key)}</dt><dd>${number(value)}</dd></div>`)}
            </dl>`
        : nothing}`;
  }
}
