import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The structural subset of the Web Speech API's SpeechRecognition the widget uses. */
interface Recognition extends EventTarget {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  start(): void;
  stop(): void;
  abort(): void;
}

interface RecognitionResultEvent extends Event {
  resultIndex: number;
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}

type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | undefined {
  const scope = globalThis as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition;
}

export interface SpeechRecognitionCallbacks {
  /** Interim text while the user speaks. */
  onInterim(text: string): void;
  /** The final utterance. */
  onFinal(text: string): void;
  onError(code: string, message: string): void;
}

/**
 * Microphone input through the browser's speech recognition, where the browser has it (the mic
 * button is hidden otherwise). One utterance per press; stopped when the element leaves the page.
 */
export class SpeechRecognitionController implements ReactiveController {
  listening = false;
  private recognition: Recognition | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly callbacks: SpeechRecognitionCallbacks,
  ) {
    host.addController(this);
  }

  static available(): boolean {
    return recognitionConstructor() !== undefined;
  }

  start(lang: string | undefined): void {
    const Ctor = recognitionConstructor();
    if (!Ctor || this.listening) return;
    const recognition = new Ctor();
    recognition.lang = lang || navigator.language;
    recognition.interimResults = true;
    recognition.continuous = false;
    recognition.addEventListener('result', (event) => {
      const { results, resultIndex } = event as RecognitionResultEvent;
      let text = '';
      let final = false;
      for (let i = resultIndex; i < results.length; i++) {
        text += results[i]![0]?.transcript ?? '';
        final ||= results[i]!.isFinal;
      }
      if (final) this.callbacks.onFinal(text.trim());
      else this.callbacks.onInterim(text);
    });
    recognition.addEventListener('error', (event) => {
      const code = (event as Event & { error?: string }).error ?? 'error';
      if (code === 'aborted' || code === 'no-speech') return;
      // The element tells people what to do about a blocked or missing microphone (by these codes).
      if (code === 'not-allowed' || code === 'service-not-allowed') this.callbacks.onError('microphone_denied', 'Microphone access was denied');
      else if (code === 'audio-capture') this.callbacks.onError('microphone_missing', 'No microphone was found');
      else this.callbacks.onError('microphone_error', `Speech recognition failed: ${code}`);
    });
    recognition.addEventListener('end', () => {
      if (this.recognition !== recognition) return;
      this.recognition = undefined;
      this.listening = false;
      this.host.requestUpdate();
    });
    this.recognition = recognition;
    this.listening = true;
    this.host.requestUpdate();
    try {
      recognition.start();
    } catch (error) {
      this.recognition = undefined;
      this.listening = false;
      this.callbacks.onError('microphone_error', error instanceof Error ? error.message : String(error));
    }
  }

  stop(): void {
    this.recognition?.stop();
  }

  hostDisconnected(): void {
    this.recognition?.abort();
    this.recognition = undefined;
    this.listening = false;
  }
}
