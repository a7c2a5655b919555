import { Link } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { formatDate } from '../../../components/money';
import { CareerUpdatesForm } from '../components/CareerUpdatesForm';
import { PageBanner } from '../components/PageBanner';

const jobs = [
  { department: 'Retail Banking', role: 'Branch Relationship Manager', location: 'Denver, CO', lastDate: '2026-12-15' },
  { department: 'Technology', role: 'Senior Frontend Engineer', location: 'Remote (US)', lastDate: '2026-12-31' },
  { department: 'Risk & Compliance', role: 'Fraud Analyst', location: 'Austin, TX', lastDate: '2027-01-10' },
  { department: 'Lending', role: 'Mortgage Loan Officer', location: 'Phoenix, AZ', lastDate: '2027-01-20' },
  { department: 'Customer Care', role: 'Customer Care Specialist', location: 'Denver, CO', lastDate: '2027-01-31' },
];

export function CareersPage() {
  return (
    <>
      <PageTitle>Careers</PageTitle>
      <PageBanner eyebrow="Careers" title="Grow your career with us">
        <p>Join 9,000 colleagues helping people and businesses reach their goals. We offer flexible working, a pension with employer matching and time off to volunteer.</p>
      </PageBanner>

      <section className="section" aria-labelledby="openings-title">
        <div className="container">
          <div className="section-header">
            <span className="eyebrow">Open positions</span>
            <h2 id="openings-title">Current openings</h2>
          </div>
          <div className="table-wrap">
            <table className="table table-stack">
              <caption className="visually-hidden">Current job openings</caption>
              <thead>
                <tr>
                  <th scope="col">Department</th>
                  <th scope="col">Role</th>
                  <th scope="col">Location</th>
                  <th scope="col">Last date</th>
                  <th scope="col">
                    <span className="visually-hidden">Apply</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {jobs.map((job) => (
                  <tr key={job.role}>
                    <td data-label="Department">{job.department}</td>
                    <th scope="row" data-label="Role">
                      {job.role}
                    </th>
                    <td data-label="Location">{job.location}</td>
                    <td data-label="Last date">
                      <time dateTime={job.lastDate}>{formatDate(`${job.lastDate}T12:00:00`)}</time>
                    </td>
                    <td>
                      <Link to="/contact" className="btn btn-secondary" aria-label={`Apply for ${job.role}`}>
                        Apply
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>

      <section className="section section-muted" aria-label="Career updates">
        <div className="container narrow">
          <CareerUpdatesForm />
        </div>
      </section>
    </>
  );
}
