import { css } from 'lit';

/**
 * Styles of `<avatar-chat>`. Theme with CSS custom properties (inherited through the shadow
 * root) or style the exposed parts directly:
 *
 * --avatar-chat-accent, --avatar-chat-on-accent (text on the accent), --avatar-chat-background, --avatar-chat-foreground, --avatar-chat-font,
 * --avatar-chat-radius, --avatar-chat-stage-height, --avatar-chat-stage-background,
 * --avatar-chat-user-background, --avatar-chat-assistant-background, --avatar-chat-border.
 */
export const avatarChatStyles = css`
  :host {
    --_accent: var(--avatar-chat-accent, #6c5ce7);
    --_bg: var(--avatar-chat-background, #fff);
    --_fg: var(--avatar-chat-foreground, #1d1d28);
    --_on-accent: var(--avatar-chat-on-accent, #fff);
    --_stage-bg: var(--avatar-chat-stage-background, linear-gradient(#e8edf5, #cfd8e6));
    --_radius: var(--avatar-chat-radius, 12px);
    --_border: var(--avatar-chat-border, 1px solid color-mix(in srgb, var(--_fg) 15%, transparent));
    display: flex;
    flex-direction: column;
    box-sizing: border-box;
    width: 100%;
    max-width: 100%;
    min-height: 0;
    color: var(--_fg);
    background: var(--_bg);
    font: var(--avatar-chat-font, 15px/1.45 system-ui, sans-serif);
    border: var(--_border);
    border-radius: var(--_radius);
    overflow: hidden;
    contain: content;
    container-type: inline-size;
    color-scheme: light dark;
  }
  /* Dark pages get a dark element unless the host sets its own colours. */
  @media (prefers-color-scheme: dark) {
    :host {
      --_accent: var(--avatar-chat-accent, #a29bfe);
      --_bg: var(--avatar-chat-background, #17171f);
      --_fg: var(--avatar-chat-foreground, #ececf4);
      --_on-accent: var(--avatar-chat-on-accent, #17171f);
      --_stage-bg: var(--avatar-chat-stage-background, linear-gradient(#2b3142, #1d2230));
    }
  }
  :host([hidden]) {
    display: none;
  }
  .stage {
    position: relative;
    height: var(--avatar-chat-stage-height, 360px);
    background: var(--_stage-bg);
    overflow: hidden;
  }
  .canvas-host,
  .canvas-host > canvas {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    display: block;
  }
  /* Without WebGL: the picture fills the stage (its own square background never sits inside it). */
  .preview {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: cover;
    object-position: center 25%;
  }
  .progress {
    position: absolute;
    left: 10%;
    right: 10%;
    bottom: 1rem;
    height: 6px;
    border-radius: 3px;
    background: color-mix(in srgb, var(--_fg) 15%, transparent);
    overflow: hidden;
  }
  .progress > span {
    display: block;
    height: 100%;
    background: var(--_accent);
    transition: width 120ms linear;
  }
  .status {
    position: absolute;
    top: 0.5rem;
    left: 0.5rem;
    padding: 0.1rem 0.5rem;
    border-radius: 999px;
    font-size: 0.75rem;
    background: color-mix(in srgb, var(--_bg) 80%, transparent);
  }
  .notice {
    position: absolute;
    left: 50%;
    bottom: 1.25rem;
    transform: translateX(-50%);
    max-width: calc(100% - 2rem);
    display: flex;
    align-items: center;
    gap: 0.6rem;
    padding: 0.45rem 0.8rem;
    border-radius: calc(var(--_radius) * 0.75);
    background: color-mix(in srgb, var(--_bg) 92%, transparent);
    box-shadow: 0 1px 4px rgb(0 0 0 / 20%);
  }
  .alert {
    display: flex;
    align-items: flex-start;
    gap: 0.5rem;
    margin: 0;
    padding: 0.45rem 0.75rem;
    font-size: 0.9em;
    border-bottom: var(--_border);
    background: color-mix(in srgb, #d63031 12%, var(--_bg));
  }
  .alert > span {
    flex: 1 1 auto;
  }
  .alert > button {
    padding: 0 0.45rem;
    line-height: 1.4;
  }
  .handoff {
    margin: 0;
    padding: 0.5rem 0.75rem;
    font-size: 0.9em;
    border-bottom: var(--_border);
    background: color-mix(in srgb, var(--_accent) 12%, var(--_bg));
  }
  .transcript {
    flex: 1 1 auto;
    min-height: 4rem;
    max-height: var(--avatar-chat-transcript-height, 220px);
    overflow-y: auto;
    padding: 0.5rem 0.75rem;
    margin: 0;
  }
  .transcript:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  .message {
    margin: 0.35rem 0;
    padding: 0.35rem 0.6rem;
    border-radius: calc(var(--_radius) * 0.75);
    overflow-wrap: anywhere;
  }
  .message .text {
    white-space: pre-wrap;
  }
  .message.user {
    background: var(--avatar-chat-user-background, color-mix(in srgb, var(--_accent) 14%, transparent));
  }
  .message.assistant {
    background: var(--avatar-chat-assistant-background, color-mix(in srgb, var(--_fg) 6%, transparent));
  }
  .message.notice,
  .message.error {
    font-size: 0.85em;
    opacity: 0.8;
  }
  .who {
    font-weight: 600;
  }
  .flag {
    opacity: 0.6;
    font-size: 0.85em;
  }
  .composer {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem;
    padding: 0.5rem;
    border-top: var(--_border);
  }
  input {
    flex: 1 1 12rem;
    min-width: 0;
    font: inherit;
    color: inherit;
    background: transparent;
    padding: 0.45rem 0.6rem;
    border: var(--_border);
    border-radius: calc(var(--_radius) * 0.6);
  }
  button {
    font: inherit;
    padding: 0.4rem 0.7rem;
    border: var(--_border);
    border-radius: calc(var(--_radius) * 0.6);
    color: inherit;
    background: transparent;
    cursor: pointer;
  }
  button[type='submit'] {
    color: var(--_on-accent);
    background: var(--_accent);
    border-color: var(--_accent);
  }
  button[aria-pressed='true'] {
    background: color-mix(in srgb, var(--_accent) 20%, transparent);
  }
  button:disabled,
  input:disabled {
    opacity: 0.5;
    cursor: default;
  }
  input:focus-visible,
  button:focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 1px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    .progress > span {
      transition: none;
    }
  }
  /* Narrow hosts (phones): the field takes the first row, the buttons share the second. */
  @container (max-width: 480px) {
    input {
      flex-basis: 100%;
    }
    button {
      flex: 1 1 0;
      padding-inline: 0.3rem;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .progress > span {
      transition: none;
    }
  }
`;
