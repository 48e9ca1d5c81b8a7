/// What a CI system says about the build a run belongs to: provider, branch, job and
/// pull request. Read from GitHub Actions' and GitLab CI's variables, or a plain
/// `CI=true`; outside CI only the branch (from git) is known.
package struct CIContext: Sendable, Equatable, Codable {
    package var provider: String?
    package var branch: String?
    package var job: String?
    package var pullRequest: String?

    package init(provider: String? = nil, branch: String? = nil, job: String? = nil, pullRequest: String? = nil) {
        self.provider = provider
        self.branch = branch
        self.job = job
        self.pullRequest = pullRequest
    }

    package static func detect(environment env: [String: String], directory: String) -> CIContext {
        func value(_ key: String) -> String? {
            guard let v = env[key], !v.isEmpty else { return nil }
            return v
        }
        if value("GITHUB_ACTIONS") == "true" {
            // GITHUB_REF is refs/pull/123/merge on pull requests; GITHUB_HEAD_REF the PR's branch.
            let pull = value("GITHUB_REF").flatMap { ref -> String? in
                let parts = ref.split(separator: "/")
                return parts.count >= 3 && parts[1] == "pull" ? String(parts[2]) : nil
            }
            return CIContext(provider: "github", branch: value("GITHUB_HEAD_REF") ?? value("GITHUB_REF_NAME"),
                             job: value("GITHUB_RUN_ID").map { id in value("GITHUB_RUN_ATTEMPT").map { "\(id).\($0)" } ?? id },
                             pullRequest: pull)
        }
        if value("GITLAB_CI") == "true" {
            return CIContext(provider: "gitlab",
                             branch: value("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") ?? value("CI_COMMIT_REF_NAME"),
                             job: value("CI_JOB_ID"), pullRequest: value("CI_MERGE_REQUEST_IID"))
        }
        let branch = value("BRANCH_NAME") ?? RunEnvironment.git(["rev-parse", "--abbrev-ref", "HEAD"], in: directory)
            .flatMap { $0 == "HEAD" ? nil : $0 }
        if value("CI") == "true" || value("CI") == "1" {
            return CIContext(provider: "ci", branch: branch, job: value("BUILD_ID") ?? value("BUILD_NUMBER"),
                             pullRequest: value("PULL_REQUEST") ?? value("CHANGE_ID"))
        }
        return CIContext(branch: branch)
    }
}
