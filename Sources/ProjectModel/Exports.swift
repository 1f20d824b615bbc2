/// Severity is shared with the protocol, which must not depend on the project model.
@_exported import Findings
