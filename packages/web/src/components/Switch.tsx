interface Props {
  checked: boolean;
  onChange: (checked: boolean) => void;
  labelledBy: string;
  /** The id of what describes it further. */
  describedBy?: string | undefined;
  /** Shown as it is, not to be changed (the note says why); it stays focusable so the reason is read. */
  disabled?: boolean | undefined;
}

/** An on/off switch: a real button with role=switch, so keyboards and screen readers work. */
export function Switch({ checked, onChange, labelledBy, describedBy, disabled = false }: Props) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-disabled={disabled || undefined}
      className="switch"
      onClick={() => {
        if (!disabled) onChange(!checked);
      }}
    >
      <span className="switch-knob" />
    </button>
  );
}
