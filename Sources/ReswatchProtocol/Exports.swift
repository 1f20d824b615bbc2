/// Results carry findings (Diagnostic, Severity, ModuleError): a client gets them with the protocol.
@_exported import Findings
