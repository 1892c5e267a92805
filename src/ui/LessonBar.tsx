import { useEffect, useState } from 'react';
import { LessonsIcon } from './icons';
import { deferred, preloadWhenIdle } from './shell/deferred';

/** A lesson as the bar shows it: its title, summary and the text of each step. */
export interface LessonText {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly steps: readonly { readonly text: string }[];
}

/** What the lessons bar needs of a lab (either world): its lessons, the one under way, and the moves. */
export interface LessonsOfLab {
  /**
   * The lab's lessons. Their texts are not on the first load (ARCHITECTURE §7a′): fetched when
   * the browser is first idle, and at once when the list opens or a lesson starts.
   */
  readonly lessons: () => Promise<readonly LessonText[]>;
  readonly lesson: { readonly id: string; readonly step: number } | null;
  startLesson(id: string): Promise<boolean>;
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
}

/** The list and the lesson under way, with their texts: loaded when first shown, fetched when the browser is first idle. */
const LessonView = deferred('lessons', () => import('./LessonView').then((m) => m.LessonView), { when: 'onShow' });

/**
 * Guided lessons (teaching mode), for either world: pick one, then read each narrated step
 * and press Next; every step puts the run where the text speaks about (time travel). The
 * first screen carries only the Lessons button (ARCHITECTURE §7a′).
 */
export function LessonsPanel(props: LessonsOfLab) {
  const [listOpen, setListOpen] = useState(false);
  const { lessons } = props;
  useEffect(() => preloadWhenIdle(() => Promise.all([LessonView.preload(), lessons()])), [lessons]);
  if (props.lesson !== null) return <LessonView {...props} onStarted={() => setListOpen(false)} />;
  return (
    <section className="lessons" aria-label="Lessons" data-testid="lessons">
      {/* The visible start for a newcomer: the lessons walk each paper's algorithm step by step. */}
      <button type="button" className="lessons-start" data-testid="lessons.open" aria-expanded={listOpen} onClick={() => setListOpen(!listOpen)}>
        <LessonsIcon /> Start here: lessons
      </button>
      {listOpen ? <LessonView {...props} onStarted={() => setListOpen(false)} /> : null}
    </section>
  );
}
