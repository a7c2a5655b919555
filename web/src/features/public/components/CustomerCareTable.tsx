import { customerCareLines } from '../../../components/bankDetails';

/** The Customer Care Numbers table of the contact page. */
export function CustomerCareTable() {
  return (
    <div className="table-wrap">
      <table className="table table-stack">
        <caption>Customer Care Numbers</caption>
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col">Toll free (US)</th>
            <th scope="col">From abroad</th>
            <th scope="col">Hours</th>
          </tr>
        </thead>
        <tbody>
          {customerCareLines.map((line) => (
            <tr key={line.service}>
              <th scope="row" data-label="Service">
                {line.service}
              </th>
              <td data-label="Toll free (US)">
                <a href={`tel:${line.tollFree.replace(/[^\d+]/g, '')}`}>{line.tollFree}</a>
              </td>
              <td data-label="From abroad">
                <a href={`tel:${line.abroad.replace(/[^\d+]/g, '')}`}>{line.abroad}</a>
              </td>
              <td data-label="Hours">{line.hours}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
