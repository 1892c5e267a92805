/** The playback speed menu both labs show: a fixed list of speeds and "as fast as possible". */
export function SpeedSelect<S extends number | 'max'>({
  speeds,
  value,
  label,
  testId,
  onChange,
}: {
  readonly speeds: readonly S[];
  readonly value: S;
  /** The text of a numeric speed, e.g. "10× (10 queries/s)". */
  readonly label: (speed: number) => string;
  readonly testId: string;
  readonly onChange: (speed: number | 'max') => void;
}) {
  return (
    <label className="speed">
      Speed
      <select data-testid={testId} value={String(value)} onChange={(e) => onChange(e.target.value === 'max' ? 'max' : Number(e.target.value))}>
        {speeds.map((speed) => (
          <option key={String(speed)} value={String(speed)}>
            {speed === 'max' ? 'as fast as possible' : label(speed)}
          </option>
        ))}
      </select>
    </label>
  );
}
