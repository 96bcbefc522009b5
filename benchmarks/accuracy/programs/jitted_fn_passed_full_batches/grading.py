"""Grade a long recording segment by segment against a reference profile."""


def grade_segments(metric, recording, reference, width):
    grades = []
    for start in range(0, len(recording) - width + 1, width):
        segment = recording[start : start + width]
        grades.append(float(metric(segment, reference[start : start + width])))
    return grades
