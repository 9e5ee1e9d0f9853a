/**
 * Simple spoken arithmetic: "what is 12 times 7", "3 + 4 * 2", "twenty percent of 50",
 * "square root of 81", "5 squared". Enough for the everyday sums people ask a talking avatar,
 * evaluated with ordinary precedence — never with `eval`.
 */

export type ArithmeticResult =
  | { ok: true; spoken: string; value: number; answer: string }
  | { ok: false; spoken: string; problem: 'division-by-zero' | 'out-of-range' };

type Op = '+' | '-' | '*' | '/' | '^' | '%of';
type Token =
  | { kind: 'num'; value: number }
  | { kind: 'op'; op: Op }
  | { kind: 'sqrt' }
  | { kind: 'squared'; power: 2 | 3 }
  | { kind: 'open' }
  | { kind: 'close' };

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
  sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1_000_000 };

const PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bmultiplied by\b|\btimes\b|×/g, ' * '],
  [/\bdivided by\b|\bover\b|÷/g, ' / '],
  [/\bto the power of\b|\bto the\b|\braised to\b/g, ' ^ '],
  [/\bplus\b|\badded to\b|\band\b/g, ' + '],
  [/\bminus\b|\btake away\b|\bless\b/g, ' - '],
  [/\bper ?cent of\b|% of\b/g, ' %of '],
  [/\bsquare root of\b|\bsqrt\b/g, ' sqrt '],
];

const SPOKEN_OP: Readonly<Record<Op, string>> = {
  '+': 'plus', '-': 'minus', '*': 'times', '/': 'divided by', '^': 'to the power of', '%of': 'percent of',
};

/** Replaces runs of number words ("twenty five", "three hundred") with digits. */
function numberWordsToDigits(text: string): string {
  return text.replace(/\b(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million)\b[ -]?)+/g, (run) => {
    let total = 0;
    let current = 0;
    for (const word of run.trim().split(/[ -]+/)) {
      const unit = UNITS[word];
      const scale = SCALES[word];
      if (unit !== undefined) current += unit;
      else if (scale === 100) current = (current || 1) * 100;
      else if (scale !== undefined) {
        total += (current || 1) * scale;
        current = 0;
      }
    }
    return ` ${total + current} `;
  });
}

function tokenize(text: string): Array<Token | 'other'> {
  let prepared = numberWordsToDigits(text.toLowerCase().replace(/,(?=\d{3})/g, ''));
  for (const [pattern, replacement] of PHRASES) prepared = prepared.replace(pattern, replacement);
  const tokens: Array<Token | 'other'> = [];
  for (const piece of prepared.match(/\d+(?:\.\d+)?|%of|[+\-*/^()x%]|[a-z']+/g) ?? []) {
    if (/^\d/.test(piece)) tokens.push({ kind: 'num', value: Number(piece) });
    else if (piece === 'x' || piece === '*') tokens.push({ kind: 'op', op: '*' });
    else if (piece === '+' || piece === '-' || piece === '/' || piece === '^') tokens.push({ kind: 'op', op: piece });
    else if (piece === '%of') tokens.push({ kind: 'op', op: '%of' });
    else if (piece === 'sqrt') tokens.push({ kind: 'sqrt' });
    else if (piece === 'squared') tokens.push({ kind: 'squared', power: 2 });
    else if (piece === 'cubed') tokens.push({ kind: 'squared', power: 3 });
    else if (piece === '(') tokens.push({ kind: 'open' });
    else if (piece === ')') tokens.push({ kind: 'close' });
    else tokens.push('other');
  }
  return tokens;
}

/** The longest run of maths tokens in the sentence, ignoring words around it. */
function mathRun(tokens: ReadonlyArray<Token | 'other'>): Token[] {
  let best: Token[] = [];
  let current: Token[] = [];
  for (const token of [...tokens, 'other' as const]) {
    if (token === 'other') {
      if (current.length > best.length) best = current;
      current = [];
    } else current.push(token);
  }
  return best;
}

class Parser {
  #i = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): number | undefined {
    const value = this.#sum();
    return this.#i === this.tokens.length ? value : undefined;
  }

  #peek(): Token | undefined {
    return this.tokens[this.#i];
  }

  #sum(): number | undefined {
    let left = this.#product();
    for (let t = this.#peek(); left !== undefined && t?.kind === 'op' && (t.op === '+' || t.op === '-'); t = this.#peek()) {
      this.#i++;
      const right = this.#product();
      if (right === undefined) return undefined;
      left = t.op === '+' ? left + right : left - right;
    }
    return left;
  }

  #product(): number | undefined {
    let left = this.#power();
    for (let t = this.#peek(); left !== undefined && t?.kind === 'op' && (t.op === '*' || t.op === '/' || t.op === '%of'); t = this.#peek()) {
      this.#i++;
      const right = this.#power();
      if (right === undefined) return undefined;
      left = t.op === '*' ? left * right : t.op === '/' ? left / right : (left / 100) * right;
    }
    return left;
  }

  #power(): number | undefined {
    const base = this.#unary();
    const t = this.#peek();
    if (base !== undefined && t?.kind === 'op' && t.op === '^') {
      this.#i++;
      const exponent = this.#power();
      return exponent === undefined ? undefined : base ** exponent;
    }
    return base;
  }

  #unary(): number | undefined {
    const t = this.#peek();
    if (t?.kind === 'op' && t.op === '-') {
      this.#i++;
      const value = this.#unary();
      return value === undefined ? undefined : -value;
    }
    if (t?.kind === 'sqrt') {
      this.#i++;
      const value = this.#unary();
      return value === undefined ? undefined : Math.sqrt(value);
    }
    let value = this.#atom();
    for (let next = this.#peek(); value !== undefined && next?.kind === 'squared'; next = this.#peek()) {
      this.#i++;
      value = value ** next.power;
    }
    return value;
  }

  #atom(): number | undefined {
    const t = this.#peek();
    if (t?.kind === 'num') {
      this.#i++;
      return t.value;
    }
    if (t?.kind === 'open') {
      this.#i++;
      const value = this.#sum();
      if (this.#peek()?.kind !== 'close') return undefined;
      this.#i++;
      return value;
    }
    return undefined;
  }
}

function speak(tokens: readonly Token[]): string {
  const words = tokens.map((t) => {
    switch (t.kind) {
      case 'num': return formatNumber(t.value);
      case 'op': return SPOKEN_OP[t.op];
      case 'sqrt': return 'the square root of';
      case 'squared': return t.power === 2 ? 'squared' : 'cubed';
      case 'open': return '(';
      case 'close': return ')';
    }
  });
  return words.join(' ').replace(/\( /g, '').replace(/ \)/g, '').replace(/[()]/g, '');
}

/** A number as it should be spoken: integers as is, others rounded to at most four decimals. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toFixed(4)));
}

/**
 * Finds and evaluates a sum in `text`. Returns `undefined` when the text holds no expression with
 * an operator (so "I'm 25" is not maths), and a `problem` for division by zero or huge results.
 */
export function solveArithmetic(text: string): ArithmeticResult | undefined {
  const run = mathRun(tokenize(text));
  const numbers = run.filter((t) => t.kind === 'num').length;
  const unaryOps = run.filter((t) => t.kind === 'sqrt' || t.kind === 'squared').length;
  const binaryOps = run.filter((t) => t.kind === 'op').length;
  if (numbers === 0 || (binaryOps === 0 && unaryOps === 0) || (unaryOps === 0 && numbers < 2)) return undefined;
  const value = new Parser(run).parse();
  if (value === undefined) return undefined;
  const spoken = speak(run);
  const divides = run.some((t) => t.kind === 'op' && t.op === '/');
  if (!Number.isFinite(value) && divides) return { ok: false, spoken, problem: 'division-by-zero' };
  if (!Number.isFinite(value) || Math.abs(value) > 1e15) return { ok: false, spoken, problem: 'out-of-range' };
  return { ok: true, spoken, value, answer: formatNumber(value) };
}
