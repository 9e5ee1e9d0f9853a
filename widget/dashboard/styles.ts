import { css } from 'lit';

/**
 * The dashboard's one stylesheet (the areas render into the app's shadow root). Colours follow
 * `prefers-color-scheme`; every pair here meets WCAG AA contrast in both schemes.
 */
export const dashboardStyles = css`
  :host {
    --bg: #ffffff;
    --fg: #1a1a1a;
    --muted: #555555;
    --line: #c8c8c8;
    --panel: #f4f5f7;
    --accent: #0b57d0;
    --accent-fg: #ffffff;
    --danger: #b3261e;
    --ok: #146c2e;
    --warn-bg: #fff4ce;
    --warn-fg: #4d3800;
    --hl: #fdecea;
    display: block;
    color: var(--fg);
    background: var(--bg);
    min-height: 100vh;
    font: 16px/1.5 system-ui, sans-serif;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --bg: #121212;
      --fg: #ececec;
      --muted: #b4b4b4;
      --line: #4a4a4a;
      --panel: #1f2023;
      --accent: #a8c7fa;
      --accent-fg: #0a1a33;
      --danger: #ffb4ab;
      --ok: #8fd19e;
      --warn-bg: #3d3000;
      --warn-fg: #ffe08a;
      --hl: #3b1f1c;
    }
  }
  * { box-sizing: border-box; }
  header {
    display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between;
    padding: 0.75rem 1rem; border-bottom: 1px solid var(--line);
  }
  header h1 { font-size: 1.2rem; margin: 0; }
  nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem; list-style: none; margin: 0; padding: 0; }
  nav a { display: inline-block; padding: 0.35rem 0.6rem; border-radius: 6px; color: var(--fg); text-decoration: none; }
  nav a[aria-current='page'] { background: var(--accent); color: var(--accent-fg); }
  nav a:hover { text-decoration: underline; }
  main { padding: 1rem; max-width: 72rem; margin: 0 auto; }
  h2 { font-size: 1.35rem; margin: 0.25rem 0 0.75rem; }
  h3 { font-size: 1.1rem; margin: 1.25rem 0 0.5rem; }
  a { color: var(--accent); }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  button, input, select, textarea { font: inherit; color: inherit; }
  input, select, textarea { background: var(--bg); border: 1px solid var(--muted); border-radius: 6px; padding: 0.35rem 0.5rem; max-width: 100%; }
  button {
    background: var(--accent); color: var(--accent-fg); border: 1px solid var(--accent); border-radius: 6px;
    padding: 0.35rem 0.8rem; cursor: pointer; min-height: 2.25rem;
  }
  button.secondary { background: transparent; color: var(--accent); }
  button.danger { background: transparent; color: var(--danger); border-color: var(--danger); }
  button[disabled] { opacity: 0.6; cursor: not-allowed; }
  form.stack, .stack { display: grid; gap: 0.6rem; max-width: 32rem; }
  .stack > *, label { min-width: 0; }
  form.stack, .stack, label { grid-template-columns: minmax(0, 1fr); }
  select { width: auto; max-width: 100%; text-overflow: ellipsis; }
  input[type='file'] { width: 100%; }
  label { display: grid; gap: 0.2rem; font-weight: 600; }
  label.inline { display: inline-flex; gap: 0.4rem; align-items: center; font-weight: normal; }
  fieldset { border: 1px solid var(--line); border-radius: 6px; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }
  .hint { color: var(--muted); font-size: 0.9rem; font-weight: normal; }
  .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; margin: 0.75rem 0; }
  .warning { background: var(--warn-bg); color: var(--warn-fg); border-radius: 6px; padding: 0.5rem 0.75rem; }
  .error { color: var(--danger); font-weight: 600; }
  .ok { color: var(--ok); font-weight: 600; }
  .secret { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
  .secret code { overflow-wrap: anywhere; padding: 0.3rem 0.5rem; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
  .table-wrap { overflow-x: auto; max-width: 100%; position: relative; }
  dash-keys, dash-webhooks, dash-usage, dash-conversations, dash-avatars, dash-playground { display: block; }
  table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
  th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { font-weight: 600; }
  tr.escalated td { background: var(--hl); }
  .badge { display: inline-block; padding: 0 0.4rem; border-radius: 4px; border: 1px solid currentColor; font-size: 0.85rem; }
  .totals { display: flex; flex-wrap: wrap; gap: 1rem; }
  .totals div { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem 0.75rem; min-width: 10rem; }
  .totals dt { color: var(--muted); font-size: 0.9rem; }
  .totals dd { margin: 0; font-size: 1.3rem; font-weight: 600; }
  ol.transcript { list-style: none; padding: 0; display: grid; gap: 0.5rem; }
  ol.transcript li { border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem 0.75rem; }
  ol.transcript li.escalated { background: var(--hl); border-color: var(--danger); }
  ol.transcript audio { display: block; margin-top: 0.3rem; max-width: 100%; }
  pre.snippet { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
  dialog { color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 8px; max-width: min(30rem, 92vw); }
  dialog::backdrop { background: rgb(0 0 0 / 0.45); }
  avatar-chat { display: block; max-width: 32rem; --avatar-chat-stage-height: 300px; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  /* uPlot: the few rules its canvas layers need (its own stylesheet is not loaded). */
  .uplot { position: relative; font-size: 0.85rem; }
  .uplot .u-wrap { position: relative; user-select: none; }
  .uplot .u-over, .uplot .u-under { position: absolute; }
  .uplot canvas { display: block; position: relative; width: 100%; height: 100%; }
  .uplot .u-axis { position: absolute; }
  .uplot .u-legend { display: none; }
  .uplot .u-cursor-x, .uplot .u-cursor-y { position: absolute; left: 0; top: 0; pointer-events: none; will-change: transform; }
  .uplot .u-cursor-x { height: 100%; border-right: 1px dashed var(--muted); }
  .uplot .u-cursor-y { width: 100%; border-bottom: 1px dashed var(--muted); }
  .uplot .u-cursor-pt { position: absolute; top: 0; left: 0; border-radius: 50%; pointer-events: none; }
  .uplot .u-select { position: absolute; background: rgb(0 0 0 / 0.07); pointer-events: none; }
  .uplot .u-hz .u-cursor-x, .uplot .u-off { display: none; }
  .chart { width: 100%; overflow: hidden; }
`;
