import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * One of a few choices, kept in the address so that a reload or a shared link keeps it (left out
 * when it is the first, the default), and answering a tap at once: the router writes the address
 * a moment later, and a radio driven by the address alone snaps back until then.
 */
export function useParamChoice<T extends string>(key: string, choices: readonly T[]): [T, (next: T) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(key);
  const fromAddress = choices.find((c) => c === raw) ?? choices[0]!;
  const [value, setValue] = useState(fromAddress);
  // Back, forward or a link may change the address too.
  useEffect(() => setValue(fromAddress), [fromAddress]);
  const choose = (next: T) => {
    setValue(next);
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next === choices[0]) out.delete(key);
        else out.set(key, next);
        return out;
      },
      { replace: true },
    );
  };
  return [value, choose];
}
