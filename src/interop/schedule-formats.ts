/**
 * The schedule file formats, apart from their readers: the RunRequest schema names them, and
 * loading the readers (which load every collective) for that would cost every run's start-up,
 * `meshwork traffic`'s included.
 */
export type ScheduleFileFormat = 'json' | 'msccl-xml';
export const SCHEDULE_FILE_FORMATS: readonly ScheduleFileFormat[] = ['json', 'msccl-xml'];
