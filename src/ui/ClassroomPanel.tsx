import { HIDEABLE_CONTROLS, VIEW_MODES, type HideableControl } from '../scenario/limits';

/** How a scenario is presented (both worlds carry it in their links). */
export interface ClassroomView {
  readonly mode: (typeof VIEW_MODES)[number];
  readonly hide: readonly HideableControl[];
}

/**
 * The classroom panel of either lab: the view mode (normal, presentation, embed) and the
 * parts to hide, which travel with the link. `parts` names what each hideable part is in
 * this world (the serving lab has no algorithm panel but a learning panel, say); parts a
 * world does not have are not offered.
 */
export function ClassroomPanel({
  view,
  onChange,
  parts,
}: {
  readonly view: ClassroomView;
  readonly onChange: (view: ClassroomView) => void;
  readonly parts: Partial<Record<HideableControl, string>>;
}) {
  const toggle = (control: HideableControl, hidden: boolean) => onChange({ ...view, hide: hidden ? [...view.hide, control] : view.hide.filter((c) => c !== control) });
  return (
    <fieldset className="classroom">
      <legend>Classroom link: how the page opens</legend>
      <label>
        View{' '}
        <select data-testid="view.mode" value={view.mode} onChange={(e) => onChange({ ...view, mode: e.target.value as ClassroomView['mode'] })}>
          <option value="normal">normal</option>
          <option value="presentation">presentation (large type, high contrast)</option>
          <option value="embed">embed (no chrome, for an iframe in slides)</option>
        </select>
      </label>
      <div className="hide-list" role="group" aria-label="Hide these parts">
        {HIDEABLE_CONTROLS.filter((c) => parts[c] !== undefined).map((c) => (
          <label key={c} className="check">
            <input type="checkbox" data-testid={`view.hide-${c}`} checked={view.hide.includes(c)} onChange={(e) => toggle(c, e.target.checked)} /> hide {parts[c]}
          </label>
        ))}
      </div>
      <p className="hint">The choices travel with the link. Open the page without a link (or remove the part after #) to get everything back.</p>
    </fieldset>
  );
}
