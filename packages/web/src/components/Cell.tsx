import { CheckOutline, RightOutline } from 'antd-mobile-icons';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Switch } from './Switch';

interface GroupProps {
  /** A visible heading for the group. */
  title?: string;
  children: ReactNode;
}

/** A white block of list rows, WeChat style. */
export function CellGroup({ title, children }: GroupProps) {
  const headingId = useId();
  return (
    <section className="cell-group" aria-labelledby={title ? headingId : undefined}>
      {title && (
        <h2 className="cell-group-title" id={headingId}>
          {title}
        </h2>
      )}
      <ul className="cells">{children}</ul>
    </section>
  );
}

interface CellProps {
  title: ReactNode;
  icon?: ReactNode;
  /** Shown on the right in grey. */
  value?: ReactNode;
  /** Opens a route (a link). */
  to?: string;
  /** Runs an action (a button). */
  onClick?: () => void;
  /** Extra content between value and arrow, e.g. an avatar. */
  extra?: ReactNode;
  /** Accessible name when the visible content is not enough. */
  label?: string;
  disabled?: boolean;
  /** Marks the row as the current choice. */
  checked?: boolean;
}

function CellBody({ title, icon, value, extra, arrow }: CellProps & { arrow: boolean }) {
  return (
    <>
      {icon && (
        <span className="cell-icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <span className="cell-title">{title}</span>
      {value !== undefined && <span className="cell-value">{value}</span>}
      {extra}
      {arrow && <RightOutline className="cell-arrow" aria-hidden="true" />}
    </>
  );
}

export function Cell(props: CellProps) {
  const { to, onClick, label, disabled } = props;
  if (to && !disabled) {
    return (
      <li>
        <Link className="cell cell-action" to={to} aria-label={label}>
          <CellBody {...props} arrow />
        </Link>
      </li>
    );
  }
  if (onClick) {
    return (
      <li>
        <button type="button" className="cell cell-action" onClick={onClick} aria-label={label} disabled={disabled}>
          <CellBody {...props} arrow={!disabled} />
        </button>
      </li>
    );
  }
  return (
    <li>
      <div className="cell">
        <CellBody {...props} arrow={false} />
      </div>
    </li>
  );
}

interface ActionCellProps {
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  /** One that deletes or ends something: its text in red. */
  danger?: boolean;
}

/** A row that is one action, its text centred (删除并退出, 重置地址). */
export function ActionCell({ children, onClick, disabled, danger = false }: ActionCellProps) {
  return (
    <li>
      <button
        type="button"
        className={`cell cell-action cell-center${danger ? ' cell-danger' : ''}`}
        disabled={disabled}
        onClick={onClick}
      >
        {children}
      </button>
    </li>
  );
}

interface SwitchCellProps {
  title: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** A line under the row that the switch is described by (why it cannot be turned on). */
  note?: string | undefined;
  /** The switch shows its state and cannot be changed (the note says why). */
  disabled?: boolean | undefined;
}

export function SwitchCell({ title, checked, onChange, note, disabled }: SwitchCellProps) {
  const labelId = useId();
  const noteId = useId();
  return (
    <li>
      <div className="cell">
        <span className="cell-title" id={labelId}>
          {title}
        </span>
        <Switch
          checked={checked}
          onChange={onChange}
          labelledBy={labelId}
          describedBy={note ? noteId : undefined}
          disabled={disabled}
        />
      </div>
      {note && (
        <p className="cell-note" id={noteId}>
          {note}
        </p>
      )}
    </li>
  );
}

interface OptionListProps<T extends string | number> {
  /** The question asked; read by screen readers only unless `legendClassName` shows it. */
  legend: string;
  legendClassName?: string;
  /** The radio group's name. */
  name: string;
  options: readonly T[];
  /** The one chosen, or null before a choice. */
  value: T | null;
  label: (option: T) => string;
  /** The language an option is written in, when not the page's (a language picker). */
  lang?: (option: T) => string;
  onChange: (option: T) => void;
  className?: string;
}

/** One choice of a few, as rows of a cell group with a check on the chosen one (a radio group). */
export function OptionList<T extends string | number>({
  legend,
  legendClassName = 'visually-hidden',
  name,
  options,
  value,
  label,
  lang,
  onChange,
  className,
}: OptionListProps<T>) {
  return (
    <fieldset className={`cell-group option-list${className ? ` ${className}` : ''}`}>
      <legend className={legendClassName}>{legend}</legend>
      <ul className="cells">
        {options.map((option) => (
          <li key={option}>
            <label className="cell" lang={lang?.(option)}>
              <input
                type="radio"
                name={name}
                value={option}
                checked={value === option}
                onChange={() => onChange(option)}
              />
              <span className="cell-title">{label(option)}</span>
              {value === option && <CheckOutline className="cell-check" aria-hidden="true" />}
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
