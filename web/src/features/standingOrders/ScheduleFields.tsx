import { SelectField, TextField } from '../../components/Field';
import { WEEKDAYS, type ScheduleDraft } from './standingOrderTypes';

export interface ScheduleFieldsProps {
  value: ScheduleDraft;
  onChange: (value: ScheduleDraft) => void;
}

/** How often, on which day, from when and until when. */
export function ScheduleFields({ value, onChange }: ScheduleFieldsProps) {
  const set = (field: keyof ScheduleDraft) => (event: { target: { value: string } }) => onChange({ ...value, [field]: event.target.value });
  return (
    <fieldset className="form-section">
      <legend>Schedule</legend>
      <div className="form-grid">
        <SelectField
          label="Frequency"
          name="frequency"
          value={value.frequency}
          onChange={(event) => onChange({ ...value, frequency: event.target.value === 'weekly' ? 'weekly' : 'monthly', day: '1' })}
        >
          <option value="monthly">Monthly</option>
          <option value="weekly">Weekly</option>
        </SelectField>
        {value.frequency === 'weekly' ? (
          <SelectField label="Weekday" name="day" value={value.day} onChange={set('day')}>
            {WEEKDAYS.map((name, index) => (
              <option key={name} value={String(index + 1)}>
                {name}
              </option>
            ))}
          </SelectField>
        ) : (
          <SelectField label="Day of the month" name="day" value={value.day} onChange={set('day')} hint="The month’s last day when it is shorter">
            {Array.from({ length: 31 }, (_, index) => (
              <option key={index} value={String(index + 1)}>
                {index + 1}
              </option>
            ))}
          </SelectField>
        )}
        <TextField label="First date" name="firstDate" type="date" required value={value.firstDate} onChange={set('firstDate')} />
        <SelectField label="Ends" name="ends" value={value.ends} onChange={set('ends')}>
          <option value="never">When I cancel it</option>
          <option value="date">On a date</option>
          <option value="count">After a number of payments</option>
        </SelectField>
        {value.ends === 'date' ? <TextField label="End date" name="endDate" type="date" value={value.endDate} onChange={set('endDate')} /> : null}
        {value.ends === 'count' ? <TextField label="Number of payments" name="count" inputMode="numeric" value={value.count} onChange={set('count')} /> : null}
      </div>
    </fieldset>
  );
}
