import { ROBOT_NAME_MAX, withinGraphemes } from '@sparrow/protocol';
import { useForm } from '../../lib/use-form';
import { Field } from '../Field';
import { Page } from '../Page';

interface NameFormProps {
  title: string;
  /** The field's label. */
  label: string;
  initial: string;
  submitText: string;
  note?: string;
  onBack: () => void;
  onSubmit: (name: string) => Promise<void>;
}

/**
 * The name of an account a machine posts as (a group's robot, a bot; ROBOT_NAME_MAX either way), on
 * a page of its own: for making one or renaming it. `onSubmit` gets the name trimmed.
 */
export function NameForm({ title, label, initial, submitText, note, onBack, onSubmit }: NameFormProps) {
  const form = useForm({ name: initial }, ({ name }) => ({
    name: !name.trim()
      ? { key: 'robots.nameRequired' }
      : !withinGraphemes(name.trim(), ROBOT_NAME_MAX)
        ? { key: 'robots.nameTooLong', params: { max: ROBOT_NAME_MAX } }
        : null,
  }));
  const handleSubmit = form.submit(({ name }) => onSubmit(name.trim()));
  return (
    <Page title={title} onBack={onBack}>
      <form onSubmit={(e) => void handleSubmit(e)} noValidate>
        {note && <p className="form-note">{note}</p>}
        <div className="form cell-group">
          <Field
            label={label}
            maxLength={ROBOT_NAME_MAX * 2}
            autoFocus
            name="name"
            autoComplete="off"
            {...form.bind('name')}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={form.busy}>
            {submitText}
          </button>
        </div>
      </form>
    </Page>
  );
}
