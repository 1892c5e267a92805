import { LessonsIcon } from './icons';
import { useEffect, useId, useRef, useState } from 'react';
import type { Lesson } from '../scenario/lessons';
import { whenIdle } from './deferred';
import { useLab, useLabStore } from './labContext';

/** What the lessons bar needs of a lab (either world): its lessons, the one under way, and the moves. */
export interface LessonsOfLab {
  /** null while they load. */
  readonly lessons: readonly { readonly id: string; readonly title: string; readonly summary: string; readonly steps: readonly { readonly text: string }[] }[] | null;
  readonly lesson: { readonly id: string; readonly step: number } | null;
  startLesson(id: string): Promise<boolean>;
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
  /** Called when the list is opened (a lab whose lessons load when first wanted starts loading them). */
  onOpenList?(): void;
}

/** The pipeline lessons' texts, loaded when the list is first opened or a lesson is under way (issue 12 part 6). */
let pipelineLessons: Promise<readonly Lesson[]> | null = null;
const loadPipelineLessons = (): Promise<readonly Lesson[]> => (pipelineLessons ??= import('../scenario/lessons').then((m) => m.LESSONS));

/** The pipeline lab's lessons bar (ODIN lessons, over the lab store). */
export function LessonBar() {
  const store = useLabStore();
  const lesson = useLab((s) => s.lesson);
  const [lessons, setLessons] = useState<readonly Lesson[] | null>(null);
  const load = () => void loadPipelineLessons().then(setLessons);
  const active = lesson !== null;
  useEffect(() => {
    if (active && lessons === null) load();
  }, [active, lessons]);
  // Fetched once the browser is idle, so that the list opens at once, also offline.
  useEffect(() => whenIdle(() => void loadPipelineLessons().catch(() => (pipelineLessons = null))), []);
  const act = store.getState();
  return <LessonsPanel lessons={lessons} lesson={lesson} startLesson={act.startLesson} lessonStep={act.lessonStep} endLesson={act.endLesson} onOpenList={load} />;
}

/**
 * Guided lessons (teaching mode), for either world: pick one, then read each narrated step
 * and press Next; every step puts the run where the text speaks about (time travel).
 */
export function LessonsPanel({ lessons, lesson, onOpenList, ...act }: LessonsOfLab) {
  const [listOpen, setListOpen] = useState(false);
  const headingId = useId();
  const current = lesson === null ? undefined : lessons?.find((l) => l.id === lesson.id);
  const next = useRef<HTMLButtonElement>(null);
  const lessonId = lesson?.id ?? null;
  const shown = current !== undefined;
  // A lesson that starts takes the focus to its Next button, so the keyboard goes on from there.
  useEffect(() => {
    if (lessonId !== null && shown) next.current?.focus();
  }, [lessonId, shown]);

  if (current === undefined || lesson === null) {
    return (
      <section className="lessons" aria-label="Lessons" data-testid="lessons">
        <button type="button" data-testid="lessons.open" aria-expanded={listOpen} onClick={() => {
            if (!listOpen) onOpenList?.();
            setListOpen(!listOpen);
          }}>
          <LessonsIcon /> Lessons
        </button>
        {listOpen ? (
          <ul className="lesson-list">
            {lessons === null ? <li className="subtle">Loading the lessons…</li> : null}
            {(lessons ?? []).map((l) => (
              <li key={l.id}>
                <button
                  type="button"
                  data-testid={`lessons.start-${l.id}`}
                  onClick={() => {
                    setListOpen(false);
                    void act.startLesson(l.id);
                  }}
                >
                  {l.title}
                </button>{' '}
                <span className="subtle">{l.summary}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    );
  }
  const last = lesson.step === current.steps.length - 1;
  return (
    <section className="lessons lesson-active panel" aria-labelledby={headingId} data-testid="lesson" data-lesson={current.id} data-step={lesson.step}>
      <h2 id={headingId}>
        {current.title}{' '}
        <span className="subtle" data-testid="lesson.progress">
          — step {lesson.step + 1} of {current.steps.length}
        </span>
      </h2>
      <p className="lesson-text" data-testid="lesson.text" aria-live="polite">
        {current.steps[lesson.step]!.text}
      </p>
      <div className="lesson-buttons">
        <button type="button" data-testid="lesson.back" disabled={lesson.step === 0} onClick={() => void act.lessonStep(lesson.step - 1)}>
          ◂ Back
        </button>
        <button type="button" ref={next} data-testid={last ? 'lesson.end' : 'lesson.next'} onClick={() => (last ? act.endLesson() : void act.lessonStep(lesson.step + 1))}>
          {last ? 'Finish the lesson' : 'Next ▸'}
        </button>
        {last ? null : (
          <button type="button" data-testid="lesson.exit" onClick={() => act.endLesson()}>
            Leave the lesson
          </button>
        )}
      </div>
    </section>
  );
}
