/**
 * GNU-style option parsing over shell words, so that the permission rules can tell a command's
 * options from its operands (the files it changes, the command a wrapper runs). It knows no
 * particular command: each caller says which of its options take a value.
 */
import { tail } from "./words.ts";
import type { Word } from "./words.ts";

export interface OptionSpec {
  /** Short options that take a value (attached or the next word). */
  valued?: string;
  /** Short options whose value may only be attached (`sed -i.bak`). */
  attached?: string;
  /** Long options that take the next word as value when written without `=`. */
  long?: readonly string[];
}

interface Parsed {
  /** Options in order: the name without dashes (`t`, `target-directory`) and its value. */
  options: { name: string; value: Word | null }[];
  operands: Word[];
  /** Index in the input of the first word after the leading options (for wrappers). */
  rest: number;
}

/**
 * GNU-style option parsing. With `leading`, stops at the first operand (a wrapper's command);
 * otherwise options and operands may mix. `--` ends the options; a word that is not literal is
 * an operand.
 */
export function parseOptions(words: readonly Word[], spec: OptionSpec, leading: boolean): Parsed {
  const options: Parsed["options"] = [];
  const operands: Word[] = [];
  let i = 0;
  let ended = false;
  for (; i < words.length; i++) {
    const word = words[i] as Word;
    const value = word.value;
    if (ended || value === null || !value.startsWith("-") || value === "-") {
      if (leading) break;
      operands.push(word);
      continue;
    }
    if (value === "--") {
      ended = true;
      if (leading) {
        i++;
        break;
      }
      continue;
    }
    if (value.startsWith("--")) {
      const equals = value.indexOf("=");
      const name = value.slice(2, equals < 0 ? undefined : equals);
      if (equals >= 0) options.push({ name, value: tail(word, equals + 1) });
      else if (spec.long?.includes(name)) options.push({ name, value: words[++i] ?? null });
      else options.push({ name, value: null });
      continue;
    }
    for (let at = 1; at < value.length; at++) {
      const letter = value[at] as string;
      const rest = value.slice(at + 1);
      if (spec.valued?.includes(letter)) {
        options.push({ name: letter, value: rest ? tail(word, at + 1) : (words[++i] ?? null) });
        break;
      }
      if (spec.attached?.includes(letter)) {
        options.push({ name: letter, value: rest ? tail(word, at + 1) : null });
        break;
      }
      options.push({ name: letter, value: null });
    }
  }
  return { options, operands, rest: i };
}

/** Whether any of the options `names` was given. */
export function has(parsed: Parsed, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

/** The values given to the options `names`, in order. */
export function optionValues(parsed: Parsed, ...names: string[]): Word[] {
  return parsed.options
    .filter((option) => names.includes(option.name) && option.value !== null)
    .map((option) => option.value as Word);
}
