@_exported import Findings
@_exported import ImageFacts
@_exported import ProjectModel
@_exported import SystemCalls
