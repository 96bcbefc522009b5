"""Grade a long recording segment by segment against a reference profile."""


def grade_segments(metric, recording, reference, width):
    grades = []
    for start in range(0, len(recording), width):
        segment = recording[start : start + width]  # expect: RTL103
        grades.append(float(metric(segment, reference[: len(segment)])))
    return grades
