interface Props {
  checked: boolean;
  onChange: (checked: boolean) => void;
  labelledBy: string;
  /** The id of what describes it further. */
  describedBy?: string | undefined;
}

/** An on/off switch: a real button with role=switch, so keyboards and screen readers work. */
export function Switch({ checked, onChange, labelledBy, describedBy }: Props) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className="switch"
      onClick={() => onChange(!checked)}
    >
      <span className="switch-knob" />
    </button>
  );
}
