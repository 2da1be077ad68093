import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/errors';
import { hasProblems, type Problem, type Problems } from './validation';

/**
 * A small form model: values, inline errors (docs/product.md §5) shown once a field was left or the form
 * submitted, and the server's own per-field messages (code 400 `data.fields`).
 */
export function useForm<F extends string>(
  initial: Record<F, string>,
  validate: (values: Record<F, string>) => Problems<F>,
) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<F, string>>>({});
  const [busy, setBusy] = useState(false);
  const problems = validate(values);

  const text = (p: Problem | undefined): string | null => (p ? t(p.key, p.params) : null);

  const error = (field: F): string | null => {
    const server = serverErrors[field];
    if (server) return server;
    return touched[field] || submitted ? text(problems[field]) : null;
  };

  const set = (field: F, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const bind = (field: F) => ({
    value: values[field],
    onChange: (value: string) => set(field, value),
    onBlur: () => setTouched((s) => (s[field] ? s : { ...s, [field]: true })),
    error: error(field),
  });

  /** Marks server-rejected fields with the server's message; true when any was ours. */
  const applyServerError = (e: unknown): boolean => {
    if (!(e instanceof ApiError)) return false;
    const mine = e.fields.filter((f): f is F => f in initial);
    if (mine.length === 0) return false;
    setServerErrors(Object.fromEntries(mine.map((f) => [f, e.message])) as Partial<Record<F, string>>);
    return true;
  };

  const submit = (action: (values: Record<F, string>) => Promise<void>) => async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setSubmitted(true);
    if (hasProblems(problems)) {
      requestAnimationFrame(() => {
        form.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      });
      return;
    }
    if (busy) return;
    setBusy(true);
    try {
      await action(values);
    } catch (err) {
      // ApiErrors were already shown by the request layer; anything else is a bug to surface.
      if (!applyServerError(err) && !(err instanceof ApiError)) throw err;
    } finally {
      setBusy(false);
    }
  };

  const reset = (next: Record<F, string> = initial) => {
    setValues(next);
    setTouched({});
    setSubmitted(false);
    setServerErrors({});
  };

  return { values, set, bind, submit, busy, problems, reset, applyServerError };
}
