package io.sparkrca.core.model;

import java.util.Map;

/** A resource profile: what each executor and each task of the profile asks for. */
public record ResourceProfileInfo(
    int id,
    Map<String, ExecutorResourceRequest> executorResources,
    Map<String, TaskResourceRequest> taskResources) {
  public ResourceProfileInfo {
    executorResources = Copies.map(executorResources);
    taskResources = Copies.map(taskResources);
  }
}
